import { html } from 'hono/html';
import type { IpCheckResult } from '../../reputation/index.js';
import {
  addressHtml,
  factorsTable,
  type Html,
  listsTable,
  moreThanShown,
  type ResultContext,
  type ResultView,
} from '../../pages/index.js';

/** An IP check on the share page: what moved the score, reverse DNS, the addresses, the lists. */
export function ipPage(stored: Record<string, unknown>, context: ResultContext): ResultView {
  const result = stored as unknown as IpCheckResult;
  return {
    details: ipDetails(result, context),
    confidence: result.ip_score.confidence,
    verdictShown: true,
  };
}

function ipDetails(result: IpCheckResult, context: ResultContext): Html {
  const { t } = context;
  const score = result.ip_score;
  const rdns = score.rdns;
  return html`${factorsTable(score.factors, context)}
    <h2>${t('result.rdns')}</h2>
    <dl class="facts">
      <dt>${t('result.address')}</dt>
      <dd>${addressHtml(result.ip)}</dd>
      <dt>${t('result.ptr')}</dt>
      <dd>
        ${rdns.names.length > 0 ? rdns.names.join(', ') : t('result.noPtr')}
        ${moreThanShown(rdns.names.length, rdns.names_total, t)}
      </dd>
      <dt>${t('result.fcrdns')}</dt>
      <dd class="status-${rdns.fcrdns === 'pass' ? 'clean' : 'error'}">
        ${t(`fcrdns.${rdns.fcrdns}`)}
      </dd>
    </dl>
    ${
      score.addresses && score.addresses.length > 0
        ? html`<h2>${t('result.addresses')}</h2>
            <ul class="addresses">
              ${score.addresses.map((address) => html`<li>${addressHtml(address)}</li>`)}
            </ul>
            ${moreThanShown(score.addresses.length, score.addresses_total, t)}`
        : ''
    }
    ${listsTable(t('result.lists'), score.lists, context)}`;
}
