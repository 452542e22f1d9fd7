import { html } from 'hono/html';
import { type Lang, type Translate, formatDate } from '../i18n/index.js';
import type { AddressSummary, Confidence, ListResult, ScoreFactor } from '../reputation/index.js';
import {
  addressTone,
  findingsOf,
  type ListReading,
  readList,
  type ResultTexts,
  sentenceOf,
  type ShareSummary,
  unansweredTexts,
  vouchingTexts,
} from '../share/index.js';
import type { Html } from './layout.js';
import { addressHtml } from './address-html.js';
import { nextStepsSection } from './next-steps.js';

export { addressHtml };

/**
 * A stored result drawn as a person reads it: the verdict, the score and what moved it, what to do
 * about each listing (next-steps.ts), and each tool's own findings, which the tool draws from the parts below (src/tools/<tool>/page.ts). The
 * share page shows it, and the check page shows the same section, fetched from the share page,
 * so there is one renderer.
 */

/** What a tool draws of its result: its own findings, and what the frame above them shows. */
export interface ResultView {
  details: Html;
  /** How many lists answered, as the score states it; absent where there is no score. */
  confidence?: Confidence;
  /** False where there is no verdict yet (addresses found, none checked). */
  verdictShown: boolean;
}

export interface ResultContext {
  lang: Lang;
  t: Translate;
  /** The tool-independent reading of the result (verdict, score, target in display form). */
  summary: ShareSummary;
  /** The result's English texts (meanings, errors, factors) as the page's language writes them. */
  texts: ResultTexts;
  /** The result's JSON under the site's root (`/watch/v1/{id}`), for links beside it. */
  resultPath?: string;
}

/** A domain may list a thousand sender addresses; a page shows the first ones and the count. */
export const maxAddressesShown = 64;

function capitalise(text: string, lang: Lang): string {
  return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
}

/** `192.0.3.20: Poor, 0/100; listed on 3 of 18 lists that answered.` (src/share/count-texts.ts) */
export function describeResult(context: Pick<ResultContext, 'summary' | 't'>): string {
  return sentenceOf(context.summary, context.t);
}

export function resultView(
  view: ResultView,
  context: Pick<ResultContext, 'lang' | 't' | 'summary'>,
): Html {
  const { lang, t, summary } = context;
  const { confidence } = view;
  return html`<section id="result" class="result" data-verdict="${summary.verdict}">
    <div class="summary">
      ${
        !view.verdictShown
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
    ${nextStepsSection(summary, t)} ${view.details}
  </section>`;
}

/** One row of a table of what moved the score: its name, what it means, and its points. */
export interface PointsRow {
  name: Html | string;
  detail: Html | string;
  points: number;
  /** The finding's code, for the page's script and tests (`data-code`). */
  code?: string;
}

/**
 * What moved the score, one row each, with its points: the IP and domain pages' factors and the
 * mail page's findings (whose detail column says what to do, `detailHeading`).
 */
export function pointsTable(
  rows: readonly PointsRow[],
  t: Translate,
  { detailHeading = t('result.details'), className = 'stacked' } = {},
): Html {
  if (rows.length === 0)
    return html`<h2>${t('result.factors')}</h2>
      <p class="note">${t('result.noFactors')}</p>`;
  return html`<h2>${t('result.factors')}</h2>
    <div class="table-scroll">
      <table class="${className}">
        <thead>
          <tr>
            <th>${t('result.factor')}</th>
            <th>${detailHeading}</th>
            <th>${t('result.points')}</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (row) =>
              html`<tr${row.code === undefined ? '' : html` data-code="${row.code}"`}>
                <td data-label="${t('result.factor')}">${row.name}</td>
                <td data-label="${detailHeading}">${row.detail}</td>
                <td
                  data-label="${t('result.points')}"
                  class="${row.points < 0 ? 'points-negative' : 'points-positive'}"
                >
                  ${row.points > 0 ? `+${row.points}` : String(row.points)}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

export function factorsTable(factors: readonly ScoreFactor[], { t, texts }: ResultContext): Html {
  return pointsTable(
    factors.map((factor) => ({
      name: `${t(`factor.${factor.kind}`)}: ${factor.source}`,
      detail: texts.factor(factor),
      points: factor.points,
    })),
    t,
  );
}

const statusOrder: Record<ListResult['status'], number> = {
  listed: 0,
  allowlisted: 1,
  error: 2,
  timeout: 3,
  disabled: 4,
  clean: 5,
};

/** The meanings of a list's answer, or why it gave none; the TXT reason is the list's own words. */
function listDetail(list: ListResult, texts: ResultTexts): string {
  if (list.status === 'listed') {
    const meanings = (list.listings ?? []).map((listing) => texts.text(listing.meaning)).join('; ');
    return [meanings || (list.codes ?? []).join(', '), list.reason].filter(Boolean).join(' — ');
  }
  if (list.status === 'allowlisted') {
    return (list.allowlist_entries ?? []).map((entry) => texts.text(entry.meaning)).join('; ');
  }
  if (list.grade) return texts.text(list.grade.label);
  // A list waiting for its key says which in its status.
  if (list.key) return '';
  // A list that does not cover IPv6 says so in its status; its error would repeat it in English.
  if (list.not_covered) return '';
  return texts.listError(list);
}

/** A row's status: the verdict model's reading, or what a keyed list or an allowlist says more. */
function statusText(list: ListResult, reading: ListReading, t: Translate): string {
  if (list.on_hold || list.not_covered) return t(reading.status);
  if (list.key) return t('status.needsKey', { key: list.key });
  if (list.status === 'allowlisted' && list.trust) {
    return t('status.allowlistedTrust', { trust: t(`trust.${list.trust}`) });
  }
  return t(reading.status);
}

/** `listed since 2 November 2026 at 09:41 UTC` under a listing whose start is known. */
export function listedSince(since: string | undefined, lang: Lang, t: Translate): Html | string {
  if (since === undefined) return '';
  return html` <span class="note since"
    >${t('watch.listedSince')} <time datetime="${since}">${formatDate(lang, since)}</time></span
  >`;
}

/** A listed list's links: why it is listed (its lookup page), and where to ask for removal. */
function listLinks(list: ListResult, t: Translate): Html | string {
  if (list.status !== 'listed') return '';
  return html`${
    list.lookup_url
      ? html` <a href="${list.lookup_url}" rel="nofollow noopener">${t('result.lookup')}</a>`
      : ''
  }${
    list.delist_url
      ? html` <a href="${list.delist_url}" rel="nofollow noopener">${t('result.delist')}</a>`
      : ''
  }`;
}

/**
 * Lists that list the target or could not answer, in full; the clean ones folded away, and for an
 * IPv6 address the lists that do not cover IPv6 folded apart (they were not asked, docs/ipv6.md).
 */
export function listsTable(
  heading: string,
  lists: readonly ListResult[],
  { lang, t, texts }: ResultContext,
  /**
   * When a listed list's listing began, where the caller knows it (a watch's page: docs/watches.md,
   * "Listed since"); a one-off check does not, and says nothing.
   */
  sinceOf?: (list: ListResult) => string | undefined,
): Html {
  const sorted = [...lists].sort((a, b) => statusOrder[a.status] - statusOrder[b.status]);
  const notable = sorted.filter(
    (list) => !list.not_covered && (list.status !== 'clean' || list.grade !== undefined),
  );
  const clean = sorted.filter((list) => list.status === 'clean' && list.grade === undefined);
  const notCovered = sorted.filter((list) => list.not_covered);
  const row = (list: ListResult) => {
    const reading = readList(list);
    const detail = listDetail(list, texts);
    return html`<tr>
      <td data-label="${t('result.list')}">${list.name} <span class="note">${list.zone}</span></td>
      <td data-label="${t('result.status')}" class="status-${reading.tone}">
        ${statusText(list, reading, t)}${listedSince(sinceOf?.(list), lang, t)}
      </td>
      <td
        data-label="${t('result.details')}"
        class="${detail === '' && list.status !== 'listed' ? 'empty' : ''}"
      >
        ${detail} ${listLinks(list, t)}
      </td>
    </tr>`;
  };
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
            <table class="stacked">
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
              <table class="stacked">
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
              <table class="stacked">
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

/**
 * The addresses a domain or pool check scored on the lists; their scores leave out reverse DNS
 * (these checks do not ask it), which the page says so an IP check's lower score is not a puzzle.
 */
export function addressesTable(addresses: readonly AddressSummary[], { t }: ResultContext): Html {
  return html`<p class="note address-scores">${t('result.addressScores')}</p>
    <div class="table-scroll">
      <table class="stacked">
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
                <td
                  data-label="${t('result.address')}"
                  class="${address.ip.includes(':') ? 'ipv6' : 'nowrap'}"
                >
                  ${addressHtml(address.ip)}
                </td>
                <td data-label="${t('score.label')}" class="nowrap">
                  <span class="pill verdict-${address.verdict}"
                    >${t(`verdict.${address.verdict}`)}</span
                  >
                  ${address.answered > 0 ? t('score.value', { score: address.score }) : ''}
                </td>
                <td data-label="${t('result.listedOn')}" class="${listedOnClass(address)}">
                  ${address.listings.map((listing) => listing.name).join(', ')}
                  ${vouchingNote(address, t)}
                </td>
                <td
                  data-label="${t('result.notAnswered')}"
                  class="${unansweredTexts(address, t).length === 0 ? 'empty' : ''}"
                  title="${address.unanswered.map((list) => list.zone).join(', ')}"
                >
                  ${unansweredTexts(address, t).join(', ')}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** The tone of an address's lists cell; `empty` (no line on a phone) when it names none. */
function listedOnClass(address: AddressSummary): string {
  const tone = addressTone(address);
  if (tone) return `status-${tone}`;
  return (address.allowlists ?? []).length === 0 ? 'empty' : '';
}

/** An address's allowlists, as good news beside its listings: `allowlisted on DNSWL.org (high trust)`. */
function vouchingNote(address: AddressSummary, t: Translate): Html | string {
  const [text] = vouchingTexts(address.allowlists, t);
  return text ? html`<span class="status-allowlisted">${text}</span>` : '';
}

/** `and 12 more`, when a result lists fewer items than there are. */
export function moreThanShown(shown: number, total: number | undefined, t: Translate): string {
  return total !== undefined && total > shown ? t('result.more', { n: total - shown }) : '';
}

/** The first items of a list, and how many more there are. */
export function shortList(items: readonly string[], max: number, t: Translate): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} ${t('result.more', { n: items.length - max })}` : shown;
}
