import { html } from 'hono/html';
import type { DomainCheckResult } from '../../reputation/index.js';
import {
  addressesTable,
  addressHtml,
  factorsTable,
  type Html,
  listsTable,
  maxAddressesShown,
  type ResultContext,
  type ResultView,
  shortList,
} from '../../pages/index.js';

/**
 * A domain check on the share page: what moved the score, the sender IPs and how each is listed,
 * sender ranges, SPF, DMARC and MX, the domain's own lists.
 */
export function domainPage(stored: Record<string, unknown>, context: ResultContext): ResultView {
  const result = stored as unknown as DomainCheckResult;
  return {
    details: domainDetails(result, context),
    confidence: result.domain_score.confidence,
    verdictShown: true,
  };
}

function domainDetails(result: DomainCheckResult, context: ResultContext): Html {
  const { t } = context;
  const { spf, dmarc } = result;
  return html`${factorsTable(result.domain_score.factors, context)}
    <h2>${t('result.senderIps')}</h2>
    ${
      result.ips.length === 0
        ? html`<p class="note">${t('result.noSenders')}</p>`
        : html`<ul class="addresses">
              ${result.ips
                .slice(0, maxAddressesShown)
                .map((ip) => html`<li>${addressHtml(ip)}</li>`)}
            </ul>
            ${
              result.ips_total > maxAddressesShown
                ? html`<p class="note">
                    ${t('result.senderTotal', { shown: maxAddressesShown, n: result.ips_total })}
                  </p>`
                : ''
            }`
    }
    ${
      result.addresses.results.length > 0
        ? html`<p class="note">${t('result.senderChecks', { n: result.addresses.checked })}</p>
            ${addressesTable(result.addresses.results, context)}`
        : ''
    }
    ${
      result.addresses.not_checked.length > 0
        ? html`<p class="note">
            ${t('result.notChecked', {
              list: shortList(result.addresses.not_checked, maxAddressesShown, t),
            })}
          </p>`
        : ''
    }
    ${
      result.ranges.length > 0
        ? html`<h2>${t('result.ranges')}</h2>
            <ul class="addresses">
              ${result.ranges.slice(0, maxAddressesShown).map(
                (range) =>
                  html`<li>
                    ${range.network}
                    <span class="note">${t('result.rangeSize', { n: range.size })}</span>
                  </li>`,
              )}
            </ul>
            <p class="note">${t('result.rangesNotChecked')}</p>`
        : ''
    }
    <h2>${t('result.spf')}, ${t('result.dmarc')}, MX</h2>
    <dl class="facts">
      <dt>${t('result.spf')}</dt>
      <dd>
        ${spf.record === null ? t(`spf.${spf.status}`) : html`<code>${spf.record}</code>`}
        ${spf.error ? html`<br /><span class="status-error">${spf.error.kind}: ${context.texts.text(spf.error.reason)}</span>` : ''}
      </dd>
      <dt>${t('result.dmarc')}</dt>
      <dd>
        ${dmarc.record === null ? t(`dmarc.${dmarc.status}`) : html`<code>${dmarc.record}</code>`}
        ${dmarc.policy ? html`<br />${t('result.policy', { policy: dmarc.policy })}` : ''}
        ${
          dmarc.applied === 'organizational' && dmarc.domain
            ? html`<br /><span class="note"
                  >${t('result.dmarcFrom', { domain: dmarc.domain })}</span
                >`
            : ''
        }
      </dd>
      <dt>${t('result.mx')}</dt>
      <dd>
        ${
          result.mx.length === 0
            ? t('result.noRecord')
            : result.mx.map(
                (mx) =>
                  html`${mx.priority} ${mx.exchange}
                    ${mx.addresses.length > 0 ? `(${mx.addresses.join(', ')})` : ''}<br />`,
              )
        }
      </dd>
    </dl>
    ${
      result.notes.length > 0
        ? html`<h2>${t('result.notes')}</h2>
            <ul>
              ${result.notes.map((note) => html`<li>${context.texts.text(note)}</li>`)}
            </ul>`
        : ''
    }
    ${listsTable(t('result.domainLists'), result.domain_score.lists, context)}`;
}
