import { html } from 'hono/html';
import type { MailCheckResult } from '../../reputation/index.js';
import type { Html, ResultContext } from '../../pages/index.js';

/**
 * The mail page's authentication details: the SPF and DMARC records with what they say (DMARC's
 * report destinations and whether they agreed to take reports), DKIM with a row per selector
 * tried with its key right under it, then BIMI.
 */

type Translate = ResultContext['t'];

export function authentication(result: MailCheckResult, t: Translate): Html {
  const { spf, dkim, dmarc, bimi } = result;
  return html`<dl class="facts">
      <dt>${t('result.spf')}</dt>
      <dd>
        ${spf.record === null ? t(`spf.${spf.status}`) : html`<code>${spf.record}</code>`}
        ${spf.record === null ? '' : html`<br />${t('mail.spfLookups', { n: spf.lookups, void: spf.voidLookups })}`}
        ${spf.error ? html`<br /><span class="status-error"><code>${spf.error.kind}</code></span>` : ''}
      </dd>
      <dt>${t('result.dmarc')}</dt>
      <dd>
        ${dmarc.record === null ? t(`dmarc.${dmarc.status}`) : html`<code>${dmarc.record}</code>`}
        ${
          dmarc.p === null
            ? ''
            : html`<br />${t('mail.dmarcPolicy', {
                  p: dmarc.p,
                  sp: dmarc.sp ?? dmarc.p,
                  pct: dmarc.pct,
                  adkim: dmarc.adkim,
                  aspf: dmarc.aspf,
                })}`
        }
        ${
          dmarc.applied === 'organizational' && dmarc.domain
            ? html`<br /><span class="note"
                  >${t('result.dmarcFrom', { domain: dmarc.domain })}</span
                >`
            : ''
        }
        ${[...dmarc.rua, ...dmarc.ruf].map(
          (destination) =>
            html`<br /><code>${destination.uri}</code> ${
                destination.external
                  ? html`<span
                      class="${destination.authorized === false ? 'status-listed' : 'status-clean'}"
                      >${t(
                        destination.authorized === null
                          ? 'mail.report.unasked'
                          : destination.authorized
                            ? 'mail.report.authorized'
                            : 'mail.report.unauthorized',
                      )}</span
                    >`
                  : ''
              }`,
        )}
      </dd>
      <dt>${t('mail.dkim')}</dt>
      <dd>
        ${t(`mail.dkim.${dkim.status}`)}
        <span class="note">${t('mail.dkimTried', { n: dkim.tried.length })}</span>
      </dd>
    </dl>
    ${dkim.selectors.length > 0 ? dkimTable(dkim.selectors, t) : ''}
    <dl class="facts">
      <dt>${t('mail.bimi')}</dt>
      <dd>
        ${t(`mail.bimi.${bimi.status}`)} ${bimi.l ? html`<br /><code>${bimi.l}</code>` : ''}
        ${bimi.a ? html`<br /><code>${bimi.a}</code>` : ''}
        ${
          bimi.status === 'none'
            ? ''
            : html`<br /><span class="${bimi.dmarc_ready ? 'note' : 'status-error'}"
                  >${t(bimi.dmarc_ready ? 'mail.bimi.ready' : 'mail.bimi.notReady')}</span
                >`
        }
      </dd>
    </dl>`;
}

type Selector = MailCheckResult['dkim']['selectors'][number];

const selectorTones: Record<Selector['status'], string> = {
  found: 'clean',
  none: 'informational',
  invalid: 'listed',
  revoked: 'error',
};

function dkimTable(selectors: readonly Selector[], t: Translate): Html {
  return html`<div class="table-scroll">
    <table class="stacked mail-dkim">
      <thead>
        <tr>
          <th>${t('mail.selector')}</th>
          <th>${t('result.status')}</th>
          <th>${t('mail.key')}</th>
        </tr>
      </thead>
      <tbody>
        ${selectors.map(
          (selector) =>
            html`<tr>
              <td data-label="${t('mail.selector')}"><code>${selector.selector}</code></td>
              <td
                data-label="${t('result.status')}"
                class="status-${selectorTones[selector.status]}"
              >
                ${t(`mail.key.${selector.status}`)}
                ${selector.testing ? html`<span class="note">${t('mail.key.testing')}</span>` : ''}
              </td>
              <td
                data-label="${t('mail.key')}"
                class="${selector.key_type === null && !selector.detail ? 'empty' : ''}"
              >
                ${
                  selector.key_type === null
                    ? ''
                    : t('mail.key.size', {
                        type: selector.key_type.toUpperCase(),
                        bits: selector.key_bits ?? 0,
                      })
                }
                ${selector.warning ? html`<br /><span class="status-error">${t('mail.key.short')}</span>` : ''}
                ${selector.detail ? html`<br /><span class="note" lang="en">${selector.detail}</span>` : ''}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
