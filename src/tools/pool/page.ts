import { html } from 'hono/html';
import type { PoolCheckResult, PoolDiscoverResult } from '../../reputation/index.js';
import {
  addressesTable,
  addressHtml,
  type Html,
  type ResultContext,
  type ResultView,
} from '../../pages/index.js';

/**
 * A pool on the share page: a discover lists the addresses found (no verdict yet); a check shows
 * each address checked.
 */
export function poolPage(stored: Record<string, unknown>, context: ResultContext): ResultView {
  if (stored.kind === 'discover') {
    return {
      details: discoverDetails(stored as unknown as PoolDiscoverResult, context),
      verdictShown: false,
    };
  }
  return {
    details: poolCheckDetails(stored as unknown as PoolCheckResult, context),
    verdictShown: true,
  };
}

function discoverDetails(result: PoolDiscoverResult, { t }: ResultContext): Html {
  return html`${
      result.canonicalName
        ? html`<p class="note">${t('result.canonical', { name: result.canonicalName })}</p>`
        : ''
    }
    <h2>${t('result.poolAddresses')}</h2>
    ${
      result.ips.length > 0
        ? html`<ul class="addresses">
            ${result.ips.map((ip) => html`<li>${addressHtml(ip)}</li>`)}
          </ul>`
        : ''
    }
    <p class="note">
      ${t(`stop.${result.stopReason}`, { max: result.ips.length })}
      ${t('result.rounds', { n: result.rounds, queries: result.queries })}
    </p>`;
}

function poolCheckDetails(result: PoolCheckResult, context: ResultContext): Html {
  return html`<h2>${context.t('result.poolChecked')}</h2>
    ${addressesTable(result.details, context)}`;
}
