import { formatDuration, isMessageKey, type Lang, type Translate } from '../../i18n/index.js';
import type { ListingChange, MailChange, WatchStatus } from '../kinds/index.js';
import type { HistoryEntry, WatchEvent } from '../model/index.js';
import { lastedMs, listingStart } from '../timeline/index.js';
import { mailChangeText } from './mail-changes.js';
import {
  type AlertButton,
  type AlertField,
  type AlertMessage,
  type AlertSection,
  clipped,
  type Line,
  linker,
  type Span,
  wordsOf,
} from './message.js';

/**
 * An event as a message (docs/watches.md, "Chat formats"): what changed (each list added, with
 * since when and why; each list removed, with how long it listed the target; a mail watch's
 * changes), the state now (the verdict, where it is listed or each provider's verdict), what to
 * do now (the lists' delisting pages), and the watch's page.
 */

/** What the message says beside the event: read from the watch when it is drawn. */
export interface AlertContext {
  /** The last check's status: where each list's lookup page is. */
  status: WatchStatus | undefined;
  /** The watch's history now, newest first: when each listing a delisting ended began. */
  history?: readonly HistoryEntry[];
  /**
   * When the watch's first check was, for a listing no history entry added (it was there at
   * that check); absent when the history has dropped entries and so cannot tell.
   */
  firstCheck?: string;
  /** The zone list's meanings in Russian, by their English: a list's code in the watch's words. */
  meanings?: ReadonlyMap<string, string>;
}

/**
 * A list's meaning in the message's language: the zone list's own Russian where it has one
 * (several meanings are joined with "; ", as results join them); English as the list wrote it.
 */
function meaningIn(
  lang: Lang,
  meanings: ReadonlyMap<string, string> | undefined,
): (english: string) => string {
  if (lang === 'en' || meanings === undefined) return (english) => english;
  return (english) =>
    english
      .split('; ')
      .map((part) => meanings.get(part) ?? part)
      .join('; ');
}

/**
 * What the alert says under a mail change: in another language than English, what to do about a
 * rule that fails or warns, as the mail page says it (the change's line already says what
 * changed, in that language); else the check's own words, a third party's text (a server's, a
 * record's) shown as written.
 */
function mailChangeDetail(change: MailChange, lang: Lang, t: Translate): Span | null {
  const advice = `mail.advice.${change.subject}_${change.to}`;
  if (lang !== 'en' && change.what === 'requirement' && isMessageKey(advice)) return t(advice);
  return change.detail ? { data: change.detail } : null;
}

/** Listings, changes and lists named in one message before "and N more". */
const maxItems = 10;
/** Delisting pages offered as buttons beside the watch page. */
const maxDelistButtons = 4;

export function eventMessage(
  event: WatchEvent,
  lang: Lang,
  context: AlertContext,
  unsubscribe?: string,
): AlertMessage {
  const { t, date, more } = wordsOf(lang);
  const { links, link } = linker();
  const { data } = event;
  const target = data.watch.target;
  const lookupOf = lookupUrls(context.status);
  const meaning = meaningIn(lang, context.meanings);
  const sections: AlertSection[] = [];

  if (event.type === 'watch.test') sections.push({ lines: [[t('chat.test')]] });
  if (data.added.length > 0) {
    const { shown, rest } = clipped(data.added, maxItems, more);
    const lines = shown.flatMap((change): Line[] => {
      const lookup = lookupOf(change);
      return [
        [
          `• ${describe(change, true)}`,
          ...(change.meaning ? [' · ', { data: meaning(change.meaning) }] : []),
        ],
        [
          `  ${t('chat.listedSince', { at: date(event.created_at) })}`,
          ...(lookup ? [' · ', link('lookup', lookup, t('chat.lookup'))] : []),
        ],
      ];
    });
    sections.push({ heading: t('chat.added'), lines: withRest(lines, rest) });
  }
  if (data.removed.length > 0) {
    const { shown, rest } = clipped(data.removed, maxItems, more);
    // The delisting says how long the listing lasted, never what the list said then (that would
    // read as a listing now).
    const lines = shown.flatMap((change): Line[] => {
      const start = listingStart(
        context.history ?? [],
        change,
        event.created_at,
        context.firstCheck,
      );
      const duration = formatDuration(t, lastedMs(start ?? event.created_at, event.created_at));
      return [
        [`• ${describe(change, false)}`],
        ...(start === undefined
          ? []
          : [[`  ${t('chat.listedFor', { duration, at: date(start) })}`]]),
      ];
    });
    sections.push({ heading: t('chat.removed'), lines: withRest(lines, rest) });
  }
  const changes = data.changes ?? [];
  if (changes.length > 0) {
    const { shown, rest } = clipped(changes, maxItems, more);
    const lines = shown.flatMap((change): Line[] => {
      const detail = mailChangeDetail(change, lang, t);
      return [[`• ${mailChangeText(change, t)}`], ...(detail === null ? [] : [['  ', detail]])];
    });
    sections.push({ heading: t('chat.changes'), lines: withRest(lines, rest) });
  }

  const verdict: AlertField = {
    name: t('chat.field.verdict'),
    value: [
      t('chat.field.verdictValue', { verdict: t(`verdict.${data.verdict}`), score: data.score }),
    ],
  };
  const fields: AlertField[] = [verdict];
  if (data.providers) {
    // A mail watch lists no blocklists: each provider's verdict stands where they would.
    const providers = Object.entries(data.providers).map(([provider, value]) =>
      t('mail.providerVerdict', {
        provider: t(`mail.provider.${provider as keyof typeof data.providers}`),
        verdict: t(`mail.verdict.${value}`),
      }),
    );
    fields.push({ name: t('chat.field.providers'), value: [providers.join(', ')] });
  } else {
    const names = [...new Set(data.listed_on.map((list) => list.name))];
    fields.push({
      name: t('chat.field.listedNow'),
      value: [names.length > 0 ? namesOf(names, more, maxItems) : t('chat.field.listedNowNone')],
    });
  }

  const page = link('page', data.watch.page_url, t('chat.button.page'));
  const buttons: AlertButton[] = [{ label: t('chat.button.page'), link: page.link }];
  let action: AlertSection | undefined;
  if (event.type === 'watch.listed') {
    const withForm = data.added.filter((change) => change.delist_url);
    const { shown, rest } = clipped(withForm, maxItems, more);
    const delists = shown.map((change) => ({
      change,
      span: link('delist', change.delist_url!, t('chat.action.delistPage')),
    }));
    for (const { change, span } of delists.slice(0, maxDelistButtons)) {
      buttons.push({ label: t('chat.button.delist', { list: change.name }), link: span.link });
    }
    action = {
      heading: t('chat.action'),
      lines:
        delists.length > 0
          ? withRest(
              [
                [t('chat.action.listed', { target })],
                ...delists.map(({ change, span }): Line => [`• ${change.name}: `, span]),
              ],
              rest,
            )
          : [[t('chat.action.listedNoForm', { target })]],
    };
  } else if (event.type === 'watch.delisted') {
    action = {
      heading: t('chat.action'),
      lines: [
        [
          data.listed_on.length > 0
            ? t('chat.action.stillListed')
            : t('chat.action.clean', { target }),
        ],
      ],
    };
  } else if (event.type === 'watch.changed') {
    action = { heading: t('chat.action'), lines: [[t('chat.action.changed')]] };
  }

  const titles = {
    'watch.listed': () => t('chat.title.listed', { target, lists: listNames(data.added, more) }),
    'watch.delisted': () =>
      t('chat.title.delisted', { target, lists: listNames(data.removed, more) }),
    'watch.changed': () => t('chat.title.changed', { target }),
    'watch.test': () => t('chat.title.test', { target }),
  } satisfies Record<WatchEvent['type'], () => string>;

  return {
    kind: event.type,
    title: titles[event.type](),
    verdict: data.verdict,
    urgency: urgencyOf(event),
    at: event.created_at,
    sections,
    fields,
    ...(action ? { action } : {}),
    buttons,
    ...(unsubscribe === undefined
      ? {}
      : {
          footer: {
            lines: [
              [t('email.alert.footer')],
              [link('unsubscribe', unsubscribe, t('email.unsubscribe'))],
            ],
          },
        }),
    links,
    more,
  };
}

/**
 * A listing found is the alert to act on; a mail setup whose provider now refuses its mail too;
 * a delisting or another change is news; a test asks for nothing.
 */
function urgencyOf(event: WatchEvent): AlertMessage['urgency'] {
  if (event.type === 'watch.listed') return 'high';
  if (event.type === 'watch.test') return 'low';
  const providers = Object.values(event.data.providers ?? {});
  return event.type === 'watch.changed' && providers.includes('fail') ? 'high' : 'default';
}

/** A listing in brief: the sender address, the list and its zone, and for a listing its codes. */
function describe(change: ListingChange, withCodes: boolean): string {
  return [change.address, `${change.name} (${change.zone})`, ...(withCodes ? [change.code] : [])]
    .filter((part) => part !== undefined && part !== '')
    .join(' · ');
}

function withRest(lines: Line[], rest: string | undefined): Line[] {
  return rest === undefined ? lines : [...lines, [rest]];
}

/** The lists a title names: two, then "and N more". */
function listNames(changes: readonly ListingChange[], more: (n: number) => string): string {
  return namesOf([...new Set(changes.map((change) => change.name))], more, 2);
}

function namesOf(names: readonly string[], more: (n: number) => string, max: number): string {
  const { shown, rest } = clipped(names, max, more);
  return rest === undefined ? shown.join(', ') : `${shown.join(', ')} ${rest}`;
}

/** Each list's lookup page for the target (or a domain's sender address), as the last check gave it. */
function lookupUrls(status: WatchStatus | undefined) {
  const urls = new Map<string, string>();
  const idOf = (address: string | undefined, zone: string) =>
    JSON.stringify([address ?? null, zone]);
  for (const list of status?.lists ?? []) {
    if (list.lookup_url) urls.set(idOf(undefined, list.zone), list.lookup_url);
  }
  for (const address of status?.addresses ?? []) {
    for (const listing of address.listings) {
      if (listing.lookup_url) urls.set(idOf(address.ip, listing.zone), listing.lookup_url);
    }
  }
  return (change: ListingChange) => urls.get(idOf(change.address, change.zone));
}
