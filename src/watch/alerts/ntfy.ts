import { base64, utf8 } from '../../lib/index.js';
import type { NoticeEvent, WatchEvent } from '../model/index.js';
import { bodyBlocks, clip, fitBlocks, plainMarkup } from './layout.js';
import type { AlertMessage } from './message.js';
import type { WebhookRequest } from './renderers.js';

/**
 * ntfy (docs/watches.md, "Chat formats"): the message as a plain text body; the title, a priority
 * by the change, an emoji tag, the watch page as the click action and as action buttons beside
 * the delisting pages, as headers. ntfy shows the body as text unless told it is Markdown, so
 * nothing in it is markup.
 */

/** ntfy's limits (docs/watches.md, "Chat formats": ntfy's "Limitations" and "Action buttons"). */
export const ntfyLimits = {
  /** Bytes of body: a longer one becomes an attachment. */
  body: 4096,
  /** Bytes of title, and of all tags together; past either the publish is refused (400). */
  title: 1024,
  tags: 512,
  actions: 3,
} as const;

/** The title's characters kept: even as an encoded word of 2-byte UTF-8, under ntfy's kilobyte. */
const maxTitleChars = 250;
/** An action button's label: a button shows a few words. */
const maxLabelChars = 40;

/** ntfy's emoji tags ("Tags & emojis"): the first is shown before the title. */
const tags: Record<WatchEvent['type'] | NoticeEvent['type'], string> = {
  'watch.listed': 'rotating_light',
  'watch.delisted': 'white_check_mark',
  'watch.changed': 'warning',
  'watch.test': 'bell',
  'reports.source_failing': 'warning',
};

/** ntfy's priorities ("Message priority"): 4 high (a long vibration), 3 default, 2 low (silent). */
const priorities: Record<AlertMessage['urgency'], string> = { high: '4', default: '3', low: '2' };

export function ntfyRequest(
  message: AlertMessage,
  event: WatchEvent | NoticeEvent,
): WebhookRequest {
  const body = fitBlocks(bodyBlocks(message, plainMarkup), ntfyLimits.body, {
    measure: (text) => utf8.encode(text).length,
    more: message.more,
  });
  const page = message.links.find((link) => link.rel === 'page');
  const actions = message.buttons.slice(0, ntfyLimits.actions).map((button) => ({
    action: 'view',
    label: clip(button.label, maxLabelChars),
    url: message.links[button.link]!.url,
  }));
  return {
    body,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      title: headerText(clip(message.title, maxTitleChars)),
      priority: priorities[message.urgency],
      tags: tags[event.type],
      ...(page ? { click: page.url } : {}),
      // The JSON form of the Actions header (ntfy reads a value that begins with `[` as JSON),
      // every character past ASCII as a JSON escape: a header is ASCII, and a label may hold a
      // comma or a quote the simple form would read as syntax.
      ...(actions.length > 0 ? { actions: asciiJson(actions) } : {}),
    },
  };
}

/** JSON with every character past ASCII written as `\uXXXX`: the same value, in ASCII. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A header carries ASCII; other text goes as an RFC 2047 encoded word (`=?UTF-8?B?…?=`), which
 * ntfy decodes (docs.ntfy.sh, "Publishing": non-ASCII titles).
 */
function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${base64(utf8.encode(text))}?=`;
}
