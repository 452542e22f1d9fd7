import { html } from 'hono/html';
import { type Lang, type Translate, formatDate } from '../i18n/index.js';
import type {
  AddressSummary,
  DomainCheckResult,
  IpCheckResult,
  ListResult,
  PoolCheckResult,
  PoolDiscoverResult,
  ScoreFactor,
} from '../reputation/index.js';
import { findingsOf, sentenceOf, type ShareSummary } from '../share/index.js';
import type { Html } from './layout.js';

/**
 * A stored result drawn as a person reads it: the verdict, the score and what moved it, each list
 * with its status, reverse DNS, and each tool's own findings. The share page shows it, and the
 * check page shows the same section, fetched from the share page, so there is one renderer.
 */

export type ToolResult =
  | { tool: 'ip'; result: IpCheckResult }
  | { tool: 'domain'; result: DomainCheckResult }
  | { tool: 'pool'; result: PoolDiscoverResult | PoolCheckResult };

export interface ResultContext {
  lang: Lang;
  t: Translate;
  /** The tool-independent reading of the result (verdict, score, target in display form). */
  summary: ShareSummary;
}

/** A domain may list a thousand sender addresses; a page shows the first ones and the count. */
const maxAddressesShown = 64;

/**
 * An address as the page writes it: an IPv6 address may break after a colon (`<wbr>`), so the
 * longest canonical one (39 characters) fits a phone's column whole, broken between groups rather
 * than anywhere; an IPv4 address never breaks (docs/ipv6.md).
 */
export function addressHtml(address: string): Html | string {
  if (!address.includes(':')) return address;
  const groups = address.split(':');
  return html`${groups.map((group, index) =>
    index === groups.length - 1 ? group : html`${group}:<wbr />`,
  )}`;
}

function capitalise(text: string, lang: Lang): string {
  return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
}

/** `192.0.3.20: Poor, 0/100; listed on 3 of 18 lists that answered.` (src/share/count-texts.ts) */
export function describeResult(context: ResultContext): string {
  return sentenceOf(context.summary, context.t);
}

export function resultView(view: ToolResult, context: ResultContext): Html {
  const { lang, t, summary } = context;
  const discover = view.tool === 'pool' && view.result.kind === 'discover';
  const confidence =
    view.tool === 'ip'
      ? view.result.ip_score.confidence
      : view.tool === 'domain'
        ? view.result.domain_score.confidence
        : undefined;
  return html`<section id="result" class="result" data-verdict="${summary.verdict}">
    <div class="summary">
      ${
        discover
          ? ''
          : html`<span class="pill verdict-${summary.verdict}"
              >${t(`verdict.${summary.verdict}`)}</span
            >`
      }
      ${
        summary.score === null
          ? ''
          : html`<span class="score">${t('score.value', { score: summary.score })}</span>`
      }
      ${
        confidence === undefined
          ? ''
          : html`<span class="note"
              >${t('confidence.label', { value: t(`confidence.${confidence}`) })}</span
            >`
      }
    </div>
    <p class="sentence">${capitalise(findingsOf(summary, t), lang)}.</p>
    <p class="checked">
      ${t('result.checkedAt')}
      <time datetime="${summary.checkedAt}">${formatDate(lang, summary.checkedAt)}</time>
    </p>
    ${details(view, context)}
  </section>`;
}

function details(view: ToolResult, context: ResultContext): Html {
  switch (view.tool) {
    case 'ip':
      return ipDetails(view.result, context);
    case 'domain':
      return domainDetails(view.result, context);
    case 'pool':
      return view.result.kind === 'discover'
        ? discoverDetails(view.result, context)
        : poolCheckDetails(view.result, context);
  }
}

function factorsTable(factors: readonly ScoreFactor[], { t }: ResultContext): Html {
  if (factors.length === 0)
    return html`<h2>${t('result.factors')}</h2>
      <p class="note">${t('result.noFactors')}</p>`;
  return html`<h2>${t('result.factors')}</h2>
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            <th>${t('result.factor')}</th>
            <th>${t('result.details')}</th>
            <th>${t('result.points')}</th>
          </tr>
        </thead>
        <tbody>
          ${factors.map(
            (factor) =>
              html`<tr>
                <td>${t(`factor.${factor.kind}`)}: ${factor.source}</td>
                <td>${factor.detail}</td>
                <td class="${factor.points < 0 ? 'points-negative' : 'points-positive'}">
                  ${factor.points > 0 ? `+${factor.points}` : String(factor.points)}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

const statusOrder: Record<ListResult['status'], number> = {
  listed: 0,
  error: 1,
  timeout: 2,
  disabled: 3,
  clean: 4,
};

function listDetail(list: ListResult): string {
  if (list.status === 'listed') {
    const meanings = (list.listings ?? []).map((listing) => listing.meaning).join('; ');
    return [meanings || (list.codes ?? []).join(', '), list.reason].filter(Boolean).join(' — ');
  }
  if (list.grade) return list.grade.label;
  // A list that does not cover IPv6 says so in its status; its error would repeat it in English.
  if (list.not_covered) return '';
  return list.error ?? '';
}

function statusText(list: ListResult, t: Translate): string {
  if (list.on_hold) return t('status.onHold');
  if (list.not_covered) return t('status.notCovered');
  return t(`status.${list.status}`);
}

/**
 * Lists that list the target or could not answer, in full; the clean ones folded away, and for an
 * IPv6 address the lists that do not cover IPv6 folded apart (they were not asked, docs/ipv6.md).
 */
function listsTable(heading: string, lists: readonly ListResult[], { t }: ResultContext): Html {
  const sorted = [...lists].sort((a, b) => statusOrder[a.status] - statusOrder[b.status]);
  const notable = sorted.filter(
    (list) => !list.not_covered && (list.status !== 'clean' || list.grade !== undefined),
  );
  const clean = sorted.filter((list) => list.status === 'clean' && list.grade === undefined);
  const notCovered = sorted.filter((list) => list.not_covered);
  const row = (list: ListResult) =>
    html`<tr>
      <td>${list.name} <span class="note">${list.zone}</span></td>
      <td class="status-${list.status}">${statusText(list, t)}</td>
      <td>
        ${listDetail(list)}
        ${
          list.status === 'listed' && list.delist_url
            ? html` <a href="${list.delist_url}" rel="nofollow noopener">${t('result.delist')}</a>`
            : ''
        }
      </td>
    </tr>`;
  const head = html`<thead>
    <tr>
      <th>${t('result.list')}</th>
      <th>${t('result.status')}</th>
      <th>${t('result.details')}</th>
    </tr>
  </thead>`;
  return html`<h2>${heading}</h2>
    ${
      notable.length > 0
        ? html`<div class="table-scroll">
            <table>
              ${head}
              <tbody>
                ${notable.map(row)}
              </tbody>
            </table>
          </div>`
        : ''
    }
    ${
      clean.length > 0
        ? html`<details>
            <summary>${t('status.clean')}: ${clean.length}</summary>
            <div class="table-scroll">
              <table>
                ${head}
                <tbody>
                  ${clean.map(row)}
                </tbody>
              </table>
            </div>
          </details>`
        : ''
    }
    ${
      notCovered.length > 0
        ? html`<details class="not-covered">
            <summary>${t('status.notCovered')}: ${notCovered.length}</summary>
            <div class="table-scroll">
              <table>
                ${head}
                <tbody>
                  ${notCovered.map(row)}
                </tbody>
              </table>
            </div>
          </details>`
        : ''
    }`;
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

function addressesTable(addresses: readonly AddressSummary[], { t }: ResultContext): Html {
  return html`<div class="table-scroll">
    <table>
      <thead>
        <tr>
          <th>${t('result.address')}</th>
          <th>${t('score.label')}</th>
          <th>${t('result.listedOn')}</th>
          <th>${t('result.notAnswered')}</th>
        </tr>
      </thead>
      <tbody>
        ${addresses.map(
          (address) =>
            html`<tr>
              <td class="${address.ip.includes(':') ? 'ipv6' : 'nowrap'}">
                ${addressHtml(address.ip)}
              </td>
              <td class="nowrap">
                <span class="pill verdict-${address.verdict}"
                  >${t(`verdict.${address.verdict}`)}</span
                >
                ${address.answered > 0 ? t('score.value', { score: address.score }) : ''}
              </td>
              <td class="${address.listed > 0 ? 'status-listed' : ''}">
                ${address.listings.map((listing) => listing.name).join(', ')}
              </td>
              <td title="${address.unanswered.map((list) => list.zone).join(', ')}">
                ${
                  address.unanswered.length > 0
                    ? t('count.unanswered', { n: address.unanswered.length })
                    : ''
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** `and 12 more`, when a result lists fewer items than there are. */
function moreThanShown(shown: number, total: number | undefined, t: Translate): string {
  return total !== undefined && total > shown ? t('result.more', { n: total - shown }) : '';
}

/** The first items of a list, and how many more there are. */
function shortList(items: readonly string[], max: number, t: Translate): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} ${t('result.more', { n: items.length - max })}` : shown;
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
        ${spf.error ? html`<br /><span class="status-error">${spf.error.kind}: ${spf.error.reason}</span>` : ''}
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
              ${result.notes.map((note) => html`<li>${note}</li>`)}
            </ul>`
        : ''
    }
    ${listsTable(t('result.domainLists'), result.domain_score.lists, context)}`;
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
