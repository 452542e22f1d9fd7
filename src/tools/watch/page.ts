import { html } from 'hono/html';
import { formatDate, formatInterval, isMessageKey, type Translate } from '../../i18n/index.js';
import {
  addressesTable,
  type Html,
  listsTable,
  type ResultContext,
  type ResultView,
  timelineChart,
} from '../../pages/index.js';
import {
  type HistoryEntry,
  type ListingChange,
  type MailBrief,
  mailChangeText,
  type WatchView,
  watchKinds,
} from '../../watch/index.js';
import { mailProviders, providerRequirements } from '../../reputation/index.js';
import { providerVerdictText } from '../../share/index.js';
import { watchSteps } from './summary.js';

/**
 * A watch on its live share page: how often it is checked and until when, its last check's lists
 * with the time each listing began (and a domain's sender addresses), the chart of its listings
 * over time, the links to its history as CSV and JSON, then the timeline of its changes, newest
 * first.
 */
export function watchPage(stored: Record<string, unknown>, context: ResultContext): ResultView {
  const watch = stored as unknown as WatchView;
  const { t, lang } = context;
  const when = (at: string | null) =>
    at === null ? '–' : html`<time datetime="${at}">${formatDate(lang, at)}</time>`;
  const interval = formatInterval(t, watch.interval_s);
  const shown = watchKinds[watch.kind].views;
  const since = new Map(
    (watch.status?.listed_on ?? [])
      .filter((listing) => listing.address === undefined && listing.since !== undefined)
      .map((listing) => [listing.zone, listing.since!]),
  );
  const details = html`<p>${watch.paused ? t('watch.paused') : t('watch.live', { interval })}</p>
    <dl class="facts">
      <dt>${t('watch.checkedAt')}</dt>
      <dd>${when(watch.checked_at)}</dd>
      <dt>${t('watch.nextCheck')}</dt>
      <dd>${when(watch.next_check_at)}</dd>
      <dt>${t('watch.expiresAt')}</dt>
      <dd>${when(watch.expires_at)}</dd>
    </dl>
    <h2>${t('watch.timeline')}</h2>
    ${shown.chart ? chart(watch, context) : ''} ${timeline(watch.history, context)}
    ${historyLinks(context)} ${watch.status?.mail ? mailFacts(watch.status.mail, context) : ''}
    ${
      watch.status && shown.lists
        ? listsTable(t(shown.lists), watch.status.lists, context, (list) => since.get(list.zone))
        : ''
    }
    ${
      watch.status?.addresses && watch.status.addresses.length > 0
        ? html`<h2>${t('result.senderIps')}</h2>
            ${addressesTable(watch.status.addresses, context)} ${senderSince(watch, context)}`
        : ''
    }`;
  return { details, verdictShown: watch.status !== null };
}

const dayMs = 86_400_000;
/** The chart shows the watch's whole life, or its last 30 days when it is older. */
const chartDays = 30;

/** The listings from change to change over the watch's life, or its last 30 days. */
function chart(watch: WatchView, context: ResultContext): Html {
  const { start, steps } = watchSteps(watch);
  const end = watch.checked_at ?? watch.created_at;
  const from = new Date(Math.max(Date.parse(start), Date.parse(end) - chartDays * dayMs));
  return timelineChart(steps, { from: from.toISOString(), end }, context);
}

/** The history to take away (docs/watches.md, "History export"), beside the watch's JSON. */
function historyLinks(context: ResultContext): Html | string {
  if (context.resultPath === undefined) return '';
  const base = `${context.resultPath}/history`;
  return html`<p class="note history-links">
    ${context.t('watch.history')} <a href="${base}.csv" download>CSV</a> ·
    <a href="${base}.json" download>JSON</a>
  </p>`;
}

/** A domain's sender addresses' listings with the time each began, where the watch knows it. */
function senderSince(watch: WatchView, { lang, t }: ResultContext): Html | string {
  const listings = (watch.status?.listed_on ?? []).filter(
    (listing) => listing.address !== undefined && listing.since !== undefined,
  );
  if (listings.length === 0) return '';
  return html`<ul class="sender-since">
    ${listings.map(
      (listing) =>
        html`<li>
          ${t('watch.senderSince', { ip: listing.address!, list: listing.name })}
          <time datetime="${listing.since}">${formatDate(lang, listing.since!)}</time>
        </li>`,
    )}
  </ul>`;
}

function timeline(history: readonly HistoryEntry[], { t, lang }: ResultContext): Html {
  if (history.length === 0) return html`<p class="hint">${t('watch.noChanges')}</p>`;
  return html`<ol class="timeline">
    ${history.map(
      (entry) =>
        html`<li>
          <time datetime="${entry.at}">${formatDate(lang, entry.at)}</time>
          ${changeLine('watch.added', entry.added, t)}
          ${changeLine('watch.removed', entry.removed, t)}
          ${(entry.changes ?? []).map((change) => html`<span>${mailChangeText(change, t)}.</span>`)}
          <span class="pill verdict-${entry.verdict}">${t(`verdict.${entry.verdict}`)}</span>
          ${t('score.value', { score: entry.score })}
        </li>`,
    )}
  </ol>`;
}

/** A mail watch's last check: each provider's verdict, the MTA-STS status, the DKIM keys found. */
function mailFacts(mail: MailBrief, { t }: ResultContext): Html {
  const providers = (['gmail', 'yahoo', 'microsoft'] as const).map(
    (provider) =>
      html`<dt>${t(`mail.provider.${provider}`)}</dt>
        <dd class="verdict-${mail.providers[provider]}">
          ${providerVerdictText(mail.providers[provider], mail.unseen?.[provider] ?? 0, t)}
        </dd>`,
  );
  const sts = `mail.mtaSts.${mail.mta_sts}`;
  return html`<h2>${t('watch.mail.providers')}</h2>
    <dl class="facts">
      ${providers}
      <dt>${t('mail.mtaSts')}</dt>
      <dd>${isMessageKey(sts) ? t(sts) : mail.mta_sts}</dd>
      <dt>${t('mail.dkim')}</dt>
      <dd>
        ${mail.dkim_selectors.length > 0 ? mail.dkim_selectors.join(', ') : t('mail.dkim.none')}
      </dd>
    </dl>
    ${watchedRules(t)}`;
}

/**
 * The rules a mail watch follows: each provider's, with the providers whose table names it
 * (required or advised), and inbound_tls, the receiving servers' STARTTLS, which none requires.
 * A change of any of them is a `watch.changed` event (docs/watches.md, "Mail watches").
 */
function watchedRules(t: Translate): Html {
  const rules = [
    ...new Set([
      ...mailProviders.flatMap((provider) =>
        providerRequirements[provider].rules.map((entry) => entry.rule),
      ),
      'inbound_tls' as const,
    ]),
  ];
  const providersOf = (rule: (typeof rules)[number]) =>
    mailProviders.flatMap((provider) => {
      const entry = providerRequirements[provider].rules.find((each) => each.rule === rule);
      return entry
        ? [
            `${t(`mail.provider.${provider}`)} (${t(entry.required ? 'mail.required' : 'mail.advised')})`,
          ]
        : [];
    });
  return html`<h3>${t('watch.mail.rules')}</h3>
    <div class="table-scroll">
      <table class="stacked mail-checklist" data-watched="rules">
        <thead>
          <tr>
            <th>${t('mail.rule')}</th>
            <th>${t('watch.mail.rulesOf')}</th>
          </tr>
        </thead>
        <tbody>
          ${rules.map(
            (rule) =>
              html`<tr data-rule="${rule}">
                <td data-label="${t('mail.rule')}">${t(`mail.rule.${rule}`)}</td>
                <td data-label="${t('watch.mail.rulesOf')}">
                  ${providersOf(rule).join(', ') || t('mail.receiving')}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

function changeLine(
  key: 'watch.added' | 'watch.removed',
  changes: readonly ListingChange[],
  t: Translate,
): Html | string {
  if (changes.length === 0) return '';
  const lists = changes
    .map((change) => (change.address ? `${change.name} (${change.address})` : change.name))
    .join(', ');
  return html`<span>${t(key, { lists })}.</span>`;
}
