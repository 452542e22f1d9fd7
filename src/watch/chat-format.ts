import type { WebhookFormat } from '../webhooks/index.js';
import type { MailContent } from './email/index.js';
import type { WatchConfig, WatchEvent, WatchStatus } from './schemas.js';

/**
 * A chat format's message for an event (docs/watches.md, "Chat formats"): the body and the headers
 * of its own (content type, ntfy's Title, Tags and Click). The texts are the watch's language's,
 * so whoever holds the catalogs builds it (src/tools/watch/chat-messages.ts) and passes it in.
 */
export interface ChatRequest {
  body: string;
  headers: Record<string, string>;
}

export type ChatFormat = Exclude<WebhookFormat, 'standard'>;

export type RenderChat = (input: {
  format: ChatFormat;
  event: WatchEvent;
  watch: Pick<WatchConfig, 'lang'>;
  /** The webhook URL (Telegram's `chat_id` may stand in its query). */
  url: string;
  /** The last check's status: where each list's lookup page is. */
  status: WatchStatus | undefined;
}) => ChatRequest;

/**
 * A watch's e-mail in its language (docs/watches.md, "E-mail"), built by whoever holds the
 * catalogs (src/tools/watch/email-messages.ts): the confirmation of an address, or an event's alert.
 */
export type RenderMail = (
  input:
    | {
        kind: 'confirm';
        watch: Pick<WatchConfig, 'lang' | 'target'>;
        confirmUrl: string;
        pageUrl: string;
        expiresAt: string;
      }
    | {
        kind: 'alert';
        event: WatchEvent;
        watch: Pick<WatchConfig, 'lang'>;
        status: WatchStatus | undefined;
        unsubscribeUrl: string;
      },
) => MailContent;
