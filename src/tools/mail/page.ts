import { html } from 'hono/html';
import type { MailCheckResult } from '../../reputation/index.js';
import type { Html, ResultContext, ResultView } from '../../pages/index.js';
import { listsTable } from '../../pages/index.js';
import { authentication } from './page-authentication.js';
import { fixesSection } from './page-fixes.js';
import { findingsTable, inboundTls, providerChecklist, providers } from './page-requirements.js';
import { mxTable, transport } from './page-transport.js';

export { mailFindingCodes } from './page-requirements.js';

/**
 * A mail check on the share page and the check page: first what to fix (page-fixes.ts), then a
 * checklist per mailbox provider and the receiving side's STARTTLS (page-requirements.ts), the
 * domain on the domain lists, what cost points, then the details: SPF, DKIM, DMARC, BIMI
 * (page-authentication.ts), the MX servers, MTA-STS, TLS-RPT, DANE (page-transport.ts)
 * (docs/mail.md). Host names, records and ciphers are `<code>`, which may wrap anywhere; words
 * never do.
 */

export function mailPage(stored: Record<string, unknown>, context: ResultContext): ResultView {
  const result = stored as unknown as MailCheckResult;
  return { details: mailDetails(result, context), verdictShown: true };
}

function mailDetails(result: MailCheckResult, context: ResultContext): Html {
  const { t } = context;
  return html`<div class="mail-result">
    ${fixesSection(result, context)}
    <h2>${t('mail.requirements')}</h2>
    <p class="note">${t('mail.scope')}</p>
    ${providers.map((provider) => providerChecklist(provider, result.requirements[provider], context))}
    ${inboundTls(result, context)}
    ${
      // Results stored before the domain's own lists were read have none.
      result.domain_lists
        ? listsTable(t('result.domainLists'), result.domain_lists.lists, context)
        : ''
    }
    ${findingsTable(result, context)}
    <h2>${t('mail.authentication')}</h2>
    ${authentication(result, t)}
    <h2>${t('mail.transport')}</h2>
    ${mxTable(result, t, context.lang)} ${transport(result, t)}
    ${
      result.notes.length > 0
        ? html`<ul class="mail-notes note">
            ${result.notes.map((note) => noteItem(note, context))}
          </ul>`
        : ''
    }
  </div>`;
}

/** The check's notes (src/reputation/mail/mail-check.ts words them), in the page's language. */
const noteForms: readonly [RegExp, (match: RegExpExecArray, t: ResultContext['t']) => string][] = [
  [/^No MX host answered at the connection stage/, (_, t) => t('mail.note.port25')],
  [
    /^Probed the (\d+) most preferred of (\d+) MX hosts\.$/,
    ([, n, total], t) => t('mail.note.mxProbed', { n: Number(n), total: Number(total) }),
  ],
  [
    /^Reverse DNS and listings of (\d+) of (\d+) SPF sender addresses\.$/,
    ([, n, total], t) => t('mail.note.sampled', { n: Number(n), total: Number(total) }),
  ],
  [/^Stopped after (\d+) DNS queries;/, ([, n], t) => t('mail.note.budget', { n: Number(n) })],
];

function noteItem(note: string, { t, lang }: Pick<ResultContext, 't' | 'lang'>): Html {
  if (lang === 'en') return html`<li>${note}</li>`;
  for (const [pattern, words] of noteForms) {
    const match = pattern.exec(note);
    if (match) return html`<li>${words(match, t)}</li>`;
  }
  return html`<li lang="en">${note}</li>`;
}
