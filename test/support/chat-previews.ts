import { type ChatFormat, type Delivery, drawnParts, type Run } from './chat-apps.js';

/**
 * A small HTML preview of a chat message as its app draws it (docs/watches.md, "Chat formats"),
 * for the browser tests: the parts chat-apps.ts reads from the payload by the app's rules, each
 * run as the app shows it (bold, code, a link, a mention's pill), in a card of the app's shape:
 * Slack's header, sections, two-column fields and buttons; Discord's embed with its coloured bar,
 * linked title and fields; Telegram's bubble; ntfy's notification with its action buttons. Every
 * text is escaped here, so the preview shows what the app would, and nothing more.
 */

const escape = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

function runHtml(run: Run): string {
  let html = escape(run.text).replaceAll('\n', '<br>');
  if (run.code) html = `<code>${html}</code>`;
  if (run.bold) html = `<b>${html}</b>`;
  if (run.mention) html = `<span class="mention">${html}</span>`;
  if (run.link) html = `<a href="${escape(run.link)}">${html}</a>`;
  return html;
}

const runsHtml = (runs: Run[]) => runs.map(runHtml).join('');

const styles = `
  body { font: 15px/1.4 system-ui, sans-serif; margin: 16px; }
  article { max-width: 520px; padding: 12px 16px; border-radius: 8px; background: #f8f8f8; overflow-wrap: anywhere; }
  article.discord { background: #2b2d31; color: #dbdee1; border-left: 4px solid var(--bar); }
  article.discord a { color: #00a8fc; }
  article.telegram { background: #effdde; border-radius: 12px; }
  h1 { font-size: 1.15em; margin: 0 0 8px; }
  .fields { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; margin: 8px 0; }
  .field-name { font-weight: 600; }
  .buttons a { display: inline-block; margin: 8px 8px 0 0; padding: 4px 10px; border: 1px solid #bbb; border-radius: 4px; text-decoration: none; }
  .mention { background: #5865f2; color: white; border-radius: 3px; padding: 0 2px; }
  p { margin: 8px 0; }
`;

export function previewHtml(format: ChatFormat, delivery: Delivery): string {
  const message = drawnParts(format, delivery);
  const title = message.parts.find((part) => part.kind === 'title');
  const titleHtml = title
    ? message.titleLink && format === 'discord'
      ? `<h1><a href="${escape(message.titleLink)}">${runsHtml(title.runs)}</a></h1>`
      : `<h1>${runsHtml(title.runs)}</h1>`
    : '';
  const texts = message.parts
    .filter((part) => part.kind === 'text')
    .map((part) => `<p>${runsHtml(part.runs)}</p>`)
    .join('');
  const fields = message.parts
    .filter((part) => part.kind === 'field')
    .map(
      (part) =>
        `<div>${part.name === undefined ? '' : `<div class="field-name">${escape(part.name)}</div>`}${runsHtml(part.runs)}</div>`,
    )
    .join('');
  const buttons = message.parts
    .filter((part) => part.kind === 'button')
    .map((part) => runsHtml(part.runs))
    .join('');
  const bar = message.colour ? ` style="--bar: ${message.colour}"` : '';
  return `<!doctype html><html><head><meta charset="utf-8"><style>${styles}</style></head><body>
<article class="${format}"${bar}>${titleHtml}${texts}${fields ? `<div class="fields">${fields}</div>` : ''}${buttons ? `<div class="buttons">${buttons}</div>` : ''}</article>
</body></html>`;
}
