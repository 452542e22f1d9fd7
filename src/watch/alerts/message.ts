import {
  formatDate,
  type Lang,
  type MessageKey,
  type Params,
  type Translate,
  translator,
} from '../../i18n/index.js';
import type { ListingChange, WatchStatus } from '../kinds/index.js';
import type { WatchEvent } from '../model/index.js';
import { mailChangeText } from './mail-changes.js';

/**
 * One message per alert (docs/watch-engine.md, "Alerts and renderers"), in the watch's language,
 * whatever channel it goes to: a title, sections of lines, and its links. A line is text and
 * links; a renderer writes a link as the channel can (the URL in plain text, an anchor in HTML),
 * from the message's `links`, so no renderer looks for a URL in text. Third-party text (a list's
 * name, what its return code means) stays text on every channel.
 */

/** What a link opens. */
export type LinkRel = 'page' | 'lookup' | 'delist' | 'confirm' | 'unsubscribe';

export interface AlertLink {
  rel: LinkRel;
  url: string;
}

/** A piece of a line: text, or the link at that place in the message's `links`. */
export type Span = string | { link: number };
export type Line = readonly Span[];

/** Lines shown together: one paragraph of an e-mail; a chat message shows them one under another. */
export interface AlertSection {
  lines: readonly Line[];
}

export interface AlertMessage {
  title: string;
  sections: readonly AlertSection[];
  links: readonly AlertLink[];
}

/** Each event's title. */
const titles = {
  'watch.listed': 'chat.title.listed',
  'watch.delisted': 'chat.title.delisted',
  'watch.changed': 'chat.title.changed',
  'watch.test': 'chat.title.test',
} as const satisfies Record<WatchEvent['type'], MessageKey>;

/** Builds a message's links as its lines name them. */
function linker() {
  const links: AlertLink[] = [];
  const link = (rel: LinkRel, url: string): Span => {
    links.push({ rel, url });
    return { link: links.length - 1 };
  };
  /** A catalog text whose `{name}` is a link: the text around it, and the link in its place. */
  const textWith = (
    t: Translate,
    key: MessageKey,
    name: string,
    rel: LinkRel,
    url: string,
    params: Params = {},
  ): Line => {
    const [before = '', after = ''] = t(key, { ...params, [name]: placeholder }).split(placeholder);
    return [before, link(rel, url), after].filter((span) => span !== '');
  };
  return { links, link, textWith };
}

/** Stands where a link goes in a catalog text; no catalog text holds it. */
const placeholder = '\u0000';

/**
 * An event as a message: what changed, on which lists (with each list's lookup and delisting
 * pages), a mail watch's changes and its providers' verdicts, where it is listed now, the verdict,
 * and the watch's page. With `unsubscribe` (an e-mail), a last section with its one-click link.
 */
export function eventMessage(
  event: WatchEvent,
  lang: Lang,
  status: WatchStatus | undefined,
  unsubscribe?: string,
): AlertMessage {
  const t = translator(lang);
  const { data } = event;
  const { links, link, textWith } = linker();
  const lines: Line[] = [];
  if (event.type === 'watch.test') lines.push([t('chat.test')]);
  const lookupOf = lookupUrls(status);
  const listing = (change: ListingChange) => {
    const what = [change.address, `${change.name} (${change.zone})`, change.code, change.meaning]
      .filter((part) => part !== undefined && part !== '')
      .join(' · ');
    lines.push([`• ${what}`]);
    const lookup = lookupOf(change);
    const pages: Line[] = [
      ...(lookup ? [[`${t('chat.lookup')}: `, link('lookup', lookup)]] : []),
      ...(change.delist_url ? [[`${t('chat.delist')}: `, link('delist', change.delist_url)]] : []),
    ];
    if (pages.length > 0)
      lines.push(['  ', ...pages.flatMap((page, i) => (i > 0 ? [' · ', ...page] : page))]);
  };
  if (data.added.length > 0) {
    lines.push([t('chat.added')]);
    data.added.forEach(listing);
  }
  if (data.removed.length > 0) {
    lines.push([t('chat.removed')]);
    data.removed.forEach(listing);
  }
  const changes = data.changes ?? [];
  if (changes.length > 0) {
    lines.push([t('chat.changes')]);
    for (const change of changes) {
      lines.push([`• ${mailChangeText(change, t)}`]);
      if (change.detail) lines.push([`  ${change.detail}`]);
    }
  }
  if (data.providers) {
    // A mail watch lists no blocklists: each provider's verdict stands where they would.
    const providers = Object.entries(data.providers).map(([provider, verdict]) =>
      t('mail.providerVerdict', {
        provider: t(`mail.provider.${provider as keyof typeof data.providers}`),
        verdict: t(`mail.verdict.${verdict}`),
      }),
    );
    lines.push([t('chat.providers', { providers: providers.join(', ') })]);
  } else {
    lines.push([
      data.listed_on.length > 0
        ? t('chat.listedNow', { lists: data.listed_on.map((list) => list.name).join(', ') })
        : t('chat.listedNowNone'),
    ]);
  }
  lines.push([t('chat.verdict', { verdict: t(`verdict.${data.verdict}`), score: data.score })]);
  lines.push(textWith(t, 'chat.page', 'url', 'page', data.watch.page_url));
  const sections: AlertSection[] = [{ lines }];
  if (unsubscribe !== undefined) {
    sections.push({ lines: [[t('email.alert.footer')], [link('unsubscribe', unsubscribe)]] });
  }
  return { title: t(titles[event.type], { target: data.watch.target }), sections, links };
}

/** The confirmation of an address (docs/watches.md, "E-mail"): its link, and until when it works. */
export function confirmMessage(input: {
  lang: Lang;
  target: string;
  confirmUrl: string;
  /** When the link stops working. */
  expiresAt: string;
}): AlertMessage {
  const t = translator(input.lang);
  const { links, link } = linker();
  const { target } = input;
  const at = formatDate(input.lang, input.expiresAt);
  return {
    title: t('email.confirm.subject', { target }),
    sections: [
      { lines: [[t('email.confirm.intro', { target })]] },
      { lines: [[t('email.confirm.action')], [link('confirm', input.confirmUrl)]] },
      { lines: [[t('email.confirm.expires', { at })], [t('email.confirm.ignore')]] },
    ],
    links,
  };
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
