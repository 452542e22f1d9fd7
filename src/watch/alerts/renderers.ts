import { base64, utf8 } from '../../lib/index.js';
import type { WebhookFormat } from '../../webhooks/index.js';
import type { WatchEvent } from '../model/index.js';
import type { AlertMessage, Line } from './message.js';

/**
 * The renderers, one per channel (docs/watch-engine.md, "Alerts and renderers"): the standard
 * event as JSON, each chat format's request (docs/watches.md, "Chat formats"), and an e-mail's
 * text and HTML parts. Each writes the one message (message.ts) as its channel takes it, so a
 * channel's layout is one entry here.
 */

/** What a webhook of a format is sent: the body, and the headers of its own. */
export interface WebhookRequest {
  body: string;
  headers: Record<string, string>;
}

/** An alert as a webhook renderer takes it. */
export interface WebhookAlert {
  /** The event as kept: the standard format sends it byte for byte. */
  body: string;
  event: WatchEvent;
  /** The event as a message in the watch's language, made only for a format that shows one. */
  message: () => AlertMessage;
  /** The webhook URL (Telegram's `chat_id` may stand in its query). */
  url: string;
}

export type WebhookRenderer = (alert: WebhookAlert) => WebhookRequest;
export type EmailPartRenderer = (message: AlertMessage) => string;

/** Discord refuses `content` over 2000 characters, Telegram `text` over 4096 (their API docs). */
const maxLength = { slack: 3000, discord: 2000, telegram: 4096, ntfy: 4096 } as const;

/** ntfy's emoji tags (docs.ntfy.sh, "Tags & emojis"): the first is shown before the title. */
const ntfyTags: Record<WatchEvent['type'], string> = {
  'watch.listed': 'rotating_light',
  'watch.delisted': 'white_check_mark',
  'watch.changed': 'warning',
  'watch.test': 'bell',
};

const json = (body: Record<string, unknown>): WebhookRequest => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

/** A line as plain text: its links as their URLs. */
function plainLine(line: Line, message: AlertMessage): string {
  return line
    .map((span) => (typeof span === 'string' ? span : message.links[span.link]!.url))
    .join('');
}

/** The message's lines as plain text, one under another (a chat message). */
export function plainText(message: AlertMessage): string {
  return message.sections
    .flatMap((section) => section.lines.map((line) => plainLine(line, message)))
    .join('\n');
}

export const renderers = {
  /** The signed Standard Webhooks event, as kept. */
  standard: ({ body }) => ({ body, headers: {} }),
  /** Slack's `text` (Mattermost and Rocket.Chat read the same), the title in bold. */
  slack: ({ message }) => {
    const shown = message();
    return json({ text: fit(`*${shown.title}*\n${plainText(shown)}`, maxLength.slack) });
  },
  /** Discord's `content`, the title in bold. */
  discord: ({ message }) => {
    const shown = message();
    return json({ content: fit(`**${shown.title}**\n${plainText(shown)}`, maxLength.discord) });
  },
  /** The Telegram Bot API's `sendMessage`. */
  telegram: ({ message, url }) => {
    const shown = message();
    // The Bot API reads its parameters from the query string and the body alike: the chat the
    // URL names is repeated in the body, so either way it arrives.
    const chatId = new URL(url).searchParams.get('chat_id');
    return json({
      ...(chatId === null ? {} : { chat_id: chatId }),
      text: fit(`${shown.title}\n${plainText(shown)}`, maxLength.telegram),
      link_preview_options: { is_disabled: true },
    });
  },
  /** ntfy's body, with its Title, Tags and Click headers. */
  ntfy: ({ message, event }) => {
    const shown = message();
    const page = shown.links.find((link) => link.rel === 'page');
    return {
      body: fit(plainText(shown), maxLength.ntfy),
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        title: headerText(shown.title),
        tags: ntfyTags[event.type],
        ...(page ? { click: page.url } : {}),
      },
    };
  },
  /** An e-mail's plain text: each section a paragraph. */
  emailText: (message) =>
    `${message.sections.map((section) => section.lines.map((line) => plainLine(line, message)).join('\n')).join('\n\n')}\n`,
  /** An e-mail's HTML: the title as its heading, each section a paragraph, every link an anchor. */
  emailHtml: (message) => {
    const paragraphs = message.sections
      .map(
        (section) =>
          `<p>${section.lines.map((line) => htmlLine(line, message)).join('<br>\n')}</p>`,
      )
      .join('\n');
    return `<!doctype html>\n<html><body>\n<h1 style="font-size:1.2em">${escapeHtml(message.title)}</h1>\n${paragraphs}\n</body></html>\n`;
  },
} satisfies Record<WebhookFormat, WebhookRenderer> & {
  emailText: EmailPartRenderer;
  emailHtml: EmailPartRenderer;
};

/** One line as HTML: its text escaped, its links anchors to the message's links. */
function htmlLine(line: Line, message: AlertMessage): string {
  return line
    .map((span) => {
      if (typeof span !== 'string') {
        const url = escapeHtml(message.links[span.link]!.url);
        return `<a href="${url}">${url}</a>`;
      }
      return escapeHtml(span).replaceAll('\n', '<br>\n');
    })
    .join('');
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

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character]!);
}
