import { escapeHtml } from './html.js';
import { bodyBlocks, fitBlocks, type Markup } from './layout.js';
import type { AlertMessage } from './message.js';

/**
 * The Telegram Bot API's `sendMessage` (docs/watches.md, "Chat formats") in its HTML parse mode:
 * the title in bold, each part of the change under a bold heading, links as names (`<a>`), no
 * link preview. Only the tags its HTML style knows are written (`b`, `a`); every piece of text
 * is escaped (`&`, `<`, `>` and `"` as the named entities it reads, `'` as a numeric one, which
 * it reads too), so nothing in it is markup.
 */

/** The Bot API's limit: 1-4096 characters of text after entities are parsed (its `sendMessage`). */
export const telegramMaxText = 4096;

export const telegramMarkup: Markup = {
  text: escapeHtml,
  link: (url, label) => `<a href="${escapeHtml(url)}">${label}</a>`,
  bold: (escaped) => `<b>${escaped}</b>`,
  // Telegram links every URL and @name it finds in a message's text, whatever its parse mode;
  // inside `code` it finds none: a third party's words stay words.
  data: (escaped) => `<code>${escaped}</code>`,
};

export function telegramPayload(message: AlertMessage, url: string): Record<string, unknown> {
  // The Bot API reads its parameters from the query string and the body alike: the chat the URL
  // names is repeated in the body, so either way it arrives.
  const chatId = new URL(url).searchParams.get('chat_id');
  // Cut on the text as written, tags and entities counted: never longer than the text shown.
  const text = fitBlocks(
    [
      { head: telegramMarkup.bold(escapeHtml(message.title)), lines: [] },
      ...bodyBlocks(message, telegramMarkup),
    ],
    telegramMaxText,
    { more: (n) => escapeHtml(message.more(n)) },
  );
  return {
    ...(chatId === null ? {} : { chat_id: chatId }),
    text,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  };
}
