import { html } from 'hono/html';
import type { MailCheckResult } from '../../reputation/index.js';
import type { Html, ResultContext } from '../../pages/index.js';

/**
 * What to fix first, at the top of the mail page (docs/mail.md, "What to fix first"): the result's
 * `fixes` in their order, each as the catalogue words its code in the page's language, with what
 * it is about (a host, a selector, a list) as code, the exact record to publish where a record is
 * the fix, and how many provider rules it meets. A code these pages do not know (a newer check's)
 * shows the check's English sentence.
 */

type Fix = MailCheckResult['fixes'][number];
type Translate = ResultContext['t'];

/** The fix codes the catalogues word (`mail.fix.<code>`); a newer check's code is shown as sent. */
export const mailFixCodes = [
  'publish_dmarc',
  'enforce_dmarc',
  'fix_spf',
  'enable_dkim',
  'strengthen_dkim',
  'fix_ptr',
  'delist_sender',
  'delist_domain',
  'inbound_starttls',
  'mx_certificate',
  'fix_mta_sts',
  'fix_tls_rpt',
  'fix_bimi',
  'authorize_reports',
] as const;
type FixCode = (typeof mailFixCodes)[number];

function knownFix(code: string): code is FixCode {
  return (mailFixCodes as readonly string[]).includes(code);
}

export function fixesSection(result: MailCheckResult, { t }: Pick<ResultContext, 't'>): Html {
  // Results stored before fixes were reported have none to show.
  const fixes = result.fixes ?? [];
  return html`<section class="mail-fixes" id="fixes">
    <h2>${t('mail.fixes')}</h2>
    ${
      fixes.length === 0
        ? html`<p class="note">${t('mail.fixes.none')}</p>`
        : html`<ol class="mail-fix-list">
            ${fixes.map((fix) => fixItem(fix, t))}
          </ol>`
    }
  </section>`;
}

function fixItem(fix: Fix, t: Translate): Html {
  const worded = knownFix(fix.code);
  return html`<li data-code="${fix.code}">
    ${
      worded
        ? html`<p>${t(`mail.fix.${fix.code as FixCode}`)}</p>
            ${fix.subject ? html`<p><code>${fix.subject}</code></p>` : ''}`
        : html`<p lang="en">${fix.detail}</p>`
    }
    ${
      fix.record
        ? html`<p class="note">${t('mail.fixes.record')}</p>
            <pre
              class="mail-record"
            ><code>${fix.record.name} ${fix.record.type} "${fix.record.value}"</code></pre>`
        : ''
    }
    ${fix.moves > 0 ? html`<p class="note">${t('mail.fixes.moves', { n: fix.moves })}</p>` : ''}
  </li>`;
}
