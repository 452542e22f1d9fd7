import type { WebhookFormat } from '../../webhooks/index.js';
import type { NoticeEvent, WatchEvent } from '../model/index.js';
import { discordPayload } from './discord.js';
import { emailHtml, emailText } from './email-parts.js';
import type { AlertMessage } from './message.js';
import { ntfyRequest } from './ntfy.js';
import { slackPayload } from './slack.js';
import { telegramPayload } from './telegram.js';

/**
 * The renderers, one per channel (docs/watch-engine.md, "Alerts and renderers"): the standard
 * event as JSON, each chat format's request (docs/watches.md, "Chat formats"), and an e-mail's
 * text and HTML parts. Each draws the one message (message.ts) as its app lays it out, in a file
 * of its own, so a channel's layout is one entry here.
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
  /** A watch's event, or a subsystem's notice (notices.ts). */
  event: WatchEvent | NoticeEvent;
  /** The event as a message in the watch's language, made only for a format that shows one. */
  message: () => AlertMessage;
  /** The webhook URL (Telegram's `chat_id` may stand in its query). */
  url: string;
}

export type WebhookRenderer = (alert: WebhookAlert) => WebhookRequest;
export type EmailPartRenderer = (message: AlertMessage) => string;

const json = (body: Record<string, unknown>): WebhookRequest => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

export const renderers = {
  /** The signed Standard Webhooks event, as kept: the public event schema, unchanged. */
  standard: ({ body }) => ({ body, headers: {} }),
  slack: ({ message }) => json(slackPayload(message())),
  discord: ({ message }) => json(discordPayload(message())),
  telegram: ({ message, url }) => json(telegramPayload(message(), url)),
  ntfy: ({ message, event }) => ntfyRequest(message(), event),
  emailText,
  emailHtml,
} satisfies Record<WebhookFormat, WebhookRenderer> & {
  emailText: EmailPartRenderer;
  emailHtml: EmailPartRenderer;
};
