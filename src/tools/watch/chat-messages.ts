import { type Lang, translator } from '../../i18n/index.js';
import { base64, utf8 } from '../../lib/index.js';
import { mailChangeText } from './mail-changes.js';
import type {
  ChatFormat,
  ChatRequest,
  ListingChange,
  RenderChat,
  WatchEvent,
  WatchStatus,
} from '../../watch/index.js';

/**
 * A watch's events as chat messages (docs/watches.md, "Chat formats"), in the watch's language:
 * what changed, on which lists (with each list's lookup and delisting pages), the verdict, and the
 * watch's page. One plain text, shaped as each service takes it: Slack's `text` (Mattermost and
 * Rocket.Chat read the same), Discord's `content`, the Telegram Bot API's `sendMessage` (`text`,
 * `chat_id` from the URL's query), ntfy's body with its Title, Tags and Click headers.
 */

/** Discord refuses `content` over 2000 characters, Telegram `text` over 4096 (their API docs). */
const maxLength: Record<ChatFormat, number> = {
  slack: 3000,
  discord: 2000,
  telegram: 4096,
  ntfy: 4096,
};

/** ntfy's emoji tags (docs.ntfy.sh, "Tags & emojis"): the first is shown before the title. */
const ntfyTags: Record<WatchEvent['type'], string> = {
  'watch.listed': 'rotating_light',
  'watch.delisted': 'white_check_mark',
  'watch.changed': 'warning',
  'watch.test': 'bell',
};

/** Each event's title. */
const titles = {
  'watch.listed': 'chat.title.listed',
  'watch.delisted': 'chat.title.delisted',
  'watch.changed': 'chat.title.changed',
  'watch.test': 'chat.title.test',
} as const satisfies Record<WatchEvent['type'], string>;

export const renderChat: RenderChat = ({ format, event, watch, url, status }) => {
  const { title, text } = chatText(event, watch.lang ?? 'en', status);
  const fitted = fit(text, maxLength[format]);
  const json = (body: Record<string, unknown>): ChatRequest => ({
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  switch (format) {
    case 'slack':
      return json({ text: fit(`*${title}*\n${text}`, maxLength.slack) });
    case 'discord':
      return json({ content: fit(`**${title}**\n${text}`, maxLength.discord) });
    case 'telegram': {
      // The Bot API reads its parameters from the query string and the body alike: the chat the
      // URL names is repeated in the body, so either way it arrives.
      const chatId = new URL(url).searchParams.get('chat_id');
      return json({
        ...(chatId === null ? {} : { chat_id: chatId }),
        text: fit(`${title}\n${text}`, maxLength.telegram),
        link_preview_options: { is_disabled: true },
      });
    }
    case 'ntfy':
      return {
        body: fitted,
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          title: headerText(title),
          tags: ntfyTags[event.type],
          click: event.data.watch.page_url,
        },
      };
  }
};

/** The title and the lines of an event's message. */
export function chatText(
  event: WatchEvent,
  lang: Lang,
  status: WatchStatus | undefined,
): { title: string; text: string } {
  const t = translator(lang);
  const { data } = event;
  const target = data.watch.target;
  const title = t(titles[event.type], { target });
  const lines: string[] = [];
  if (event.type === 'watch.test') lines.push(t('chat.test'));
  const lookupOf = lookupUrls(status);
  const listing = (change: ListingChange) => {
    const links = [
      ...(lookupOf(change) ? [`${t('chat.lookup')}: ${lookupOf(change)}`] : []),
      ...(change.delist_url ? [`${t('chat.delist')}: ${change.delist_url}`] : []),
    ];
    const what = [change.address, `${change.name} (${change.zone})`, change.code, change.meaning]
      .filter((part) => part !== undefined && part !== '')
      .join(' · ');
    return `• ${what}${links.length > 0 ? `\n  ${links.join(' · ')}` : ''}`;
  };
  if (data.added.length > 0) lines.push(t('chat.added'), ...data.added.map(listing));
  if (data.removed.length > 0) lines.push(t('chat.removed'), ...data.removed.map(listing));
  const changes = data.changes ?? [];
  if (changes.length > 0) {
    lines.push(
      t('chat.changes'),
      ...changes.map(
        (change) => `• ${mailChangeText(change, t)}${change.detail ? `\n  ${change.detail}` : ''}`,
      ),
    );
  }
  if (data.providers) {
    // A mail watch lists no blocklists: each provider's verdict stands where they would.
    const providers = Object.entries(data.providers).map(([provider, verdict]) =>
      t('mail.providerVerdict', {
        provider: t(`mail.provider.${provider as keyof typeof data.providers}`),
        verdict: t(`mail.verdict.${verdict}`),
      }),
    );
    lines.push(t('chat.providers', { providers: providers.join(', ') }));
  }
  if (!data.providers) {
    lines.push(
      data.listed_on.length > 0
        ? t('chat.listedNow', { lists: data.listed_on.map((list) => list.name).join(', ') })
        : t('chat.listedNowNone'),
    );
  }
  lines.push(
    t('chat.verdict', { verdict: t(`verdict.${data.verdict}`), score: data.score }),
    t('chat.page', { url: data.watch.page_url }),
  );
  return { title, text: lines.join('\n') };
}

/** Each list's lookup page for the target (or a domain's sender address), as the last check gave it. */
function lookupUrls(status: WatchStatus | undefined) {
  const urls = new Map<string, string>();
  for (const list of status?.lists ?? []) {
    if (list.lookup_url) urls.set(`|${list.zone}`, list.lookup_url);
  }
  for (const address of status?.addresses ?? []) {
    for (const listing of address.listings) {
      if (listing.lookup_url) urls.set(`${address.ip}|${listing.zone}`, listing.lookup_url);
    }
  }
  return (change: ListingChange) => urls.get(`${change.address ?? ''}|${change.zone}`);
}

/** Cut at a length a service accepts, marked with an ellipsis. */
function fit(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/**
 * A header carries ASCII; other text goes as an RFC 2047 encoded word (`=?UTF-8?B?…?=`), which
 * ntfy decodes (docs.ntfy.sh, "Publishing": non-ASCII titles).
 */
function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${base64(utf8.encode(text))}?=`;
}
