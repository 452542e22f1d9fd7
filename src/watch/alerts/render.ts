import type { Lang } from '../../i18n/index.js';
import type { WebhookFormat } from '../../webhooks/index.js';
import type { EmailContent } from '../email/index.js';
import type { WatchStatus } from '../kinds/index.js';
import type { WatchConfig, WatchEvent } from '../model/index.js';
import { confirmMessage, eventMessage } from './message.js';
import { plainText, renderers, type WebhookRequest } from './renderers.js';

/**
 * What the deliveries send (docs/watches.md, "Chat formats" and "E-mail"): an event's request in
 * its webhook's format, and a watch's e-mails, each the one message drawn by its channel's
 * renderer, made at each attempt from the event kept and the watch's language now.
 */

export function webhookRequest(input: {
  format: WebhookFormat;
  /** The event as kept. */
  body: string;
  watch: Pick<WatchConfig, 'lang'>;
  url: string;
  /** The last check's status: where each list's lookup page is. */
  status: WatchStatus | undefined;
}): WebhookRequest {
  const event = JSON.parse(input.body) as WatchEvent;
  const lang = input.watch.lang ?? 'en';
  return renderers[input.format]({
    body: input.body,
    event,
    url: input.url,
    message: () => eventMessage(event, lang, input.status),
  });
}

/** A watch's e-mail: the confirmation of an address, or an event's alert. */
export type EmailInput =
  | {
      kind: 'confirm';
      watch: Pick<WatchConfig, 'lang' | 'target'>;
      confirmUrl: string;
      expiresAt: string;
    }
  | {
      kind: 'alert';
      event: WatchEvent;
      watch: Pick<WatchConfig, 'lang'>;
      status: WatchStatus | undefined;
      unsubscribeUrl: string;
    };

/**
 * A watch's e-mail in its language: an alert's words are the chat message's, with the one-click
 * unsubscribe link at its foot; the same message as plain text and as HTML, in which every value
 * is escaped and every link an anchor.
 */
export function renderEmail(input: EmailInput): EmailContent {
  const lang = input.watch.lang ?? 'en';
  const message =
    input.kind === 'confirm'
      ? confirmMessage({
          lang,
          target: input.watch.target,
          confirmUrl: input.confirmUrl,
          expiresAt: input.expiresAt,
        })
      : eventMessage(input.event, lang, input.status, input.unsubscribeUrl);
  return {
    subject: message.title,
    text: renderers.emailText(message),
    html: renderers.emailHtml(message),
  };
}

/** An event's title and its lines as plain text, as a chat message shows them. */
export function chatText(
  event: WatchEvent,
  lang: Lang,
  status: WatchStatus | undefined,
): { title: string; text: string } {
  const message = eventMessage(event, lang, status);
  return { title: message.title, text: plainText(message) };
}
