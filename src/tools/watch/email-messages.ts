import { formatDate, translator } from '../../i18n/index.js';
import type { MailContent, RenderMail } from '../../watch/index.js';
import { chatText } from './chat-messages.js';

/**
 * A watch's e-mails in its language (docs/watches.md, "E-mail"): the confirmation of an address,
 * and each alert, whose words are the chat messages' (chat-messages.ts) with the one-click
 * unsubscribe link at the foot. The same text twice: plain, and HTML in which every value is
 * escaped and every URL a link.
 */
export const renderMail: RenderMail = (input) => {
  const lang = input.watch.lang ?? 'en';
  const t = translator(lang);
  if (input.kind === 'confirm') {
    const paragraphs = [
      t('email.confirm.intro', { target: input.watch.target }),
      `${t('email.confirm.action')}\n${input.confirmUrl}`,
      `${t('email.confirm.expires', { at: formatDate(lang, input.expiresAt) })}\n${t('email.confirm.ignore')}`,
    ];
    return content(t('email.confirm.subject', { target: input.watch.target }), paragraphs);
  }
  const { title, text } = chatText(input.event, lang, input.status);
  return content(title, [text, `${t('email.alert.footer')}\n${input.unsubscribeUrl}`]);
};

function content(subject: string, paragraphs: readonly string[]): MailContent {
  const html = paragraphs
    .map((paragraph) => `<p>${paragraph.split('\n').map(htmlLine).join('<br>\n')}</p>`)
    .join('\n');
  return {
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: `<!doctype html>\n<html><body>\n<h1 style="font-size:1.2em">${escapeHtml(subject)}</h1>\n${html}\n</body></html>\n`,
  };
}

/** One line of text as HTML: escaped, its http(s) URLs links. */
function htmlLine(line: string): string {
  return line
    .split(/(https?:\/\/\S+)/)
    .map((part, index) =>
      index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');
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
