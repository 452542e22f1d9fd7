import type { Lang } from '../../i18n/index.js';
import type { WebhookFormat } from '../../webhooks/index.js';
import type { EmailContent } from '../email/index.js';
import { maxHistory, type WatchConfig, type WatchEvent, type WatchState } from '../model/index.js';
import { type AlertContext, eventMessage } from './event-message.js';
import { bodyBlocks, plainMarkup } from './layout.js';
import { confirmMessage } from './message.js';
import { renderers, type WebhookRequest } from './renderers.js';

/**
 * What the deliveries send (docs/watches.md, "Chat formats" and "E-mail"): an event's request in
 * its webhook's format, and a watch's e-mails, each the one message drawn by its channel's
 * renderer, made at each attempt from the event kept and the watch as it is now (its language,
 * its last status, its history).
 */

/** The watch as an alert reads it. */
export type AlertWatch = Pick<WatchConfig, 'lang'> & Partial<Pick<WatchConfig, 'created_at'>>;
/** The watch's state as an alert reads it: the last status, and the history. */
export type AlertState = Pick<WatchState, 'status'> & Partial<Pick<WatchState, 'history'>>;

/** What an event's message reads of the watch beside the event. */
export function alertContext(
  watch: AlertWatch,
  state: AlertState | undefined,
  meanings?: ReadonlyMap<string, string>,
): AlertContext {
  const history = state?.history ?? [];
  return {
    status: state?.status,
    history,
    ...(meanings ? { meanings } : {}),
    // A listing no entry added was there at the first check, which the watch knows while its
    // history has dropped nothing.
    ...(watch.created_at !== undefined && history.length < maxHistory
      ? { firstCheck: watch.created_at }
      : {}),
  };
}

export function webhookRequest(input: {
  format: WebhookFormat;
  /** The event as kept. */
  body: string;
  watch: AlertWatch;
  url: string;
  /** The watch's state now: each list's lookup page, and when each listing began. */
  state: AlertState | undefined;
  /** The zone list's meanings in Russian, by their English. */
  meanings?: ReadonlyMap<string, string>;
}): WebhookRequest {
  const event = JSON.parse(input.body) as WatchEvent;
  const lang = input.watch.lang ?? 'en';
  return renderers[input.format]({
    body: input.body,
    event,
    url: input.url,
    message: () =>
      eventMessage(event, lang, alertContext(input.watch, input.state, input.meanings)),
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
      watch: AlertWatch;
      state: AlertState | undefined;
      unsubscribeUrl: string;
      /** The zone list's meanings in Russian, by their English. */
      meanings?: ReadonlyMap<string, string>;
    };

/**
 * A watch's e-mail in its language: an alert's words are the chat messages', with the one-click
 * unsubscribe link at its foot; the same message as plain text and as HTML.
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
      : eventMessage(
          input.event,
          lang,
          alertContext(input.watch, input.state, input.meanings),
          input.unsubscribeUrl,
        );
  return {
    subject: message.title,
    text: renderers.emailText(message),
    html: renderers.emailHtml(message),
  };
}

/** An event's title and its message as plain text, as ntfy's body shows it (the watch's page). */
export function chatText(
  event: WatchEvent,
  lang: Lang,
  state: AlertState | undefined,
  meanings?: ReadonlyMap<string, string>,
): { title: string; text: string } {
  const message = eventMessage(event, lang, alertContext({ lang }, state, meanings));
  const text = bodyBlocks(message, plainMarkup)
    .map((block) => [...(block.head === undefined ? [] : [block.head]), ...block.lines].join('\n'))
    .join('\n');
  return { title: message.title, text };
}
