import { html } from 'hono/html';
import { formatDate, isMessageKey, type Translate } from '../../i18n/index.js';
import {
  addressesTable,
  type Html,
  listsTable,
  type ResultContext,
  type ResultView,
} from '../../pages/index.js';
import type { HistoryEntry, ListingChange, MailBrief, WatchView } from '../../watch/index.js';
import { mailChangeText } from './mail-changes.js';

/**
 * A watch on its live share page: how often it is checked and until when, its last check's lists
 * (and a domain's sender addresses), then the timeline of its changes, newest first.
 */
export function watchPage(stored: Record<string, unknown>, context: ResultContext): ResultView {
  const watch = stored as unknown as WatchView;
  const { t, lang } = context;
  const when = (at: string | null) =>
    at === null ? '–' : html`<time datetime="${at}">${formatDate(lang, at)}</time>`;
  const interval = t('watch.interval', { n: watch.interval_s });
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
    ${timeline(watch.history, context)}
    ${watch.status?.mail ? mailFacts(watch.status.mail, context) : ''}
    ${
      watch.status && watch.kind !== 'mail'
        ? listsTable(
            t(watch.kind === 'domain' ? 'result.domainLists' : 'result.lists'),
            watch.status.lists,
            context,
          )
        : ''
    }
    ${
      watch.status?.addresses && watch.status.addresses.length > 0
        ? html`<h2>${t('result.senderIps')}</h2>
            ${addressesTable(watch.status.addresses, context)}`
        : ''
    }`;
  return { details, verdictShown: watch.status !== null };
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
          <span class="verdict-${entry.verdict}">${t(`verdict.${entry.verdict}`)}</span>
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
          ${t(`mail.verdict.${mail.providers[provider]}`)}
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
    </dl>`;
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
