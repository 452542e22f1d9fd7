import { escapeHtml } from './html.js';
import { bodyBlocks, type Markup, plainMarkup } from './layout.js';
import type { AlertMessage } from './message.js';

/**
 * An e-mail's two parts (docs/watches.md, "E-mail"): the title as the text's first line and the
 * HTML's heading, then the message's blocks as paragraphs. In the HTML every piece of text is
 * escaped and the only anchors are the message's links, named: no URL found in text (a list's
 * words, a policy's) becomes a link.
 */

const htmlMarkup: Markup = {
  text: escapeHtml,
  link: (url, label) => `<a href="${escapeHtml(url)}">${label}</a>`,
  bold: (escaped) => `<strong>${escaped}</strong>`,
};

/** The text part: the title, then each block a paragraph. */
export function emailText(message: AlertMessage): string {
  const paragraphs = bodyBlocks(message, plainMarkup).map((block) =>
    [...(block.head === undefined ? [] : [block.head]), ...block.lines].join('\n'),
  );
  return `${[message.title, ...paragraphs].join('\n\n')}\n`;
}

/** The HTML part: the title as its heading, each block a paragraph, each link an anchor. */
export function emailHtml(message: AlertMessage): string {
  const paragraphs = bodyBlocks(message, htmlMarkup)
    .map(
      (block) =>
        `<p>${[...(block.head === undefined ? [] : [block.head]), ...block.lines].join('<br>\n')}</p>`,
    )
    .join('\n');
  return `<!doctype html>\n<html><body>\n<h1 style="font-size:1.2em">${escapeHtml(message.title)}</h1>\n${paragraphs}\n</body></html>\n`;
}
