/**
 * A chat message as its app reads it, for the tests (docs/watches.md, "Chat formats"): each
 * format's payload parsed by the rules the app documents, into what a reader sees (the title, the
 * text with each link shown as its name), the links it makes, and the mentions it would notify.
 * Slack mrkdwn (`verbatim: true`): `<…>` control sequences and `&amp;`, `&lt;`, `&gt;`. Discord
 * markdown: backslash escapes, masked links, bare URLs, mentions. Telegram's HTML style: its
 * tags, its entities; any other tag is a refusal. ntfy: a plain text body, an RFC 2047 title,
 * JSON actions.
 */

export type ChatFormat = 'slack' | 'discord' | 'telegram' | 'ntfy';

export interface DrawnLink {
  label: string;
  url: string;
}

export interface Drawn {
  title: string;
  /** The text shown, each link as its name. */
  text: string;
  links: DrawnLink[];
  /** What would notify someone: `<!channel>`, `<@U1>`, `@everyone`… */
  mentions: string[];
}

/** A delivery as the receiver got it. */
export interface Delivery {
  body: string;
  headers: Record<string, string | undefined>;
}

export function drawn(format: ChatFormat, delivery: Delivery): Drawn {
  if (format === 'ntfy') return drawnNtfy(delivery);
  const body = JSON.parse(delivery.body) as Record<string, unknown>;
  if (format === 'slack') return drawnSlack(body);
  if (format === 'discord') return drawnDiscord(body);
  return drawnTelegram(body);
}

// Slack ---------------------------------------------------------------------------------------

interface SlackText {
  type: string;
  text: string;
}

function slackMrkdwn(text: string, links: DrawnLink[], mentions: string[]): string {
  const shown = text.replace(/<([^>]*)>/g, (_whole, inner: string) => {
    if (/^[!@#]/.test(inner)) {
      mentions.push(`<${inner}>`);
      return `<${inner}>`;
    }
    const [url = '', label = url] = inner.split('|');
    links.push({ label: slackEntities(label), url: slackEntities(url) });
    return slackEntities(label);
  });
  // Emphasis marks are styling, not words.
  return slackEntities(shown.replace(/(^|\n)\*([^*\n]+)\*/g, '$1$2'));
}

function slackEntities(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

function drawnSlack(body: Record<string, unknown>): Drawn {
  const links: DrawnLink[] = [];
  const mentions: string[] = [];
  const blocks = (body.blocks ?? []) as Record<string, unknown>[];
  const header = blocks.find((block) => block.type === 'header');
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'section') {
      const text = block.text as SlackText | undefined;
      if (text) parts.push(slackMrkdwn(text.text, links, mentions));
      for (const field of (block.fields ?? []) as SlackText[]) {
        parts.push(slackMrkdwn(field.text, links, mentions));
      }
    }
    if (block.type === 'actions') {
      for (const button of block.elements as { text: SlackText; url: string }[]) {
        links.push({ label: button.text.text, url: button.url });
        parts.push(button.text.text);
      }
    }
  }
  return {
    title: (header?.text as SlackText | undefined)?.text ?? '',
    text: parts.join('\n'),
    links,
    mentions,
  };
}

// Discord -------------------------------------------------------------------------------------

function discordMarkdown(text: string, links: DrawnLink[], mentions: string[]): string {
  let shown = '';
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const escaped = /^\\([^\sA-Za-z0-9])/.exec(rest);
    if (escaped) {
      shown += escaped[1];
      at += 2;
      continue;
    }
    const masked = /^\[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)/.exec(rest);
    if (masked) {
      const label = discordMarkdown(masked[1]!, [], mentions);
      links.push({ label, url: masked[2]! });
      shown += label;
      at += masked[0].length;
      continue;
    }
    const mention = /^(<@[!&]?\d+>|<#\d+>|@everyone|@here)/.exec(rest);
    if (mention) {
      mentions.push(mention[1]!);
      shown += mention[1];
      at += mention[0].length;
      continue;
    }
    const url = /^https?:\/\/[^\s<]+[^\s<.,:;"')\]]/.exec(rest);
    if (url) {
      links.push({ label: url[0], url: url[0] });
      shown += url[0];
      at += url[0].length;
      continue;
    }
    if (rest.startsWith('**')) {
      at += 2;
      continue;
    }
    shown += text[at];
    at += 1;
  }
  return shown;
}

function drawnDiscord(body: Record<string, unknown>): Drawn {
  const links: DrawnLink[] = [];
  const mentions: string[] = [];
  const parts: string[] = [];
  if (typeof body.content === 'string') parts.push(discordMarkdown(body.content, links, mentions));
  const [embed] = (body.embeds ?? []) as {
    title?: string;
    url?: string;
    description?: string;
    fields?: { name: string; value: string }[];
  }[];
  const title = embed?.title === undefined ? '' : discordMarkdown(embed.title, [], mentions);
  if (embed?.url) links.push({ label: title, url: embed.url });
  if (embed?.description) parts.push(discordMarkdown(embed.description, links, mentions));
  for (const field of embed?.fields ?? []) {
    parts.push(`${field.name}\n${discordMarkdown(field.value, links, mentions)}`);
  }
  // allowed_mentions: { parse: [] } notifies no one, whatever the text holds.
  const silenced =
    JSON.stringify((body.allowed_mentions as { parse?: unknown } | undefined)?.parse) === '[]';
  return { title, text: parts.join('\n'), links, mentions: silenced ? [] : mentions };
}

/** The mentions Discord's markdown reads in a payload's text, notified or not. */
export function discordMentionsWritten(delivery: Delivery): string[] {
  const body = JSON.parse(delivery.body) as Record<string, unknown>;
  const mentions: string[] = [];
  const [embed] = (body.embeds ?? []) as {
    title?: string;
    description?: string;
    fields?: { value: string }[];
  }[];
  for (const text of [
    embed?.title,
    embed?.description,
    ...(embed?.fields ?? []).map((f) => f.value),
  ]) {
    if (text !== undefined) discordMarkdown(text, [], mentions);
  }
  return mentions;
}

// Telegram ------------------------------------------------------------------------------------

/** The tags of the Bot API's HTML style ("Formatting options"). */
export const telegramTags = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'tg-emoji',
  'code',
  'pre',
  'blockquote',
]);

function telegramEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_whole, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_whole, code: string) =>
      String.fromCodePoint(Number.parseInt(code, 16)),
    )
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');
}

/**
 * Telegram's HTML as the Bot API parses it: its text, its links (its `<a>`, and the URLs it finds
 * in text itself, outside a link and outside `code` and `pre`), the @names it would mention; an
 * unknown tag throws, as the API refuses it.
 */
export function parseTelegramHtml(html: string): {
  text: string;
  links: DrawnLink[];
  mentions: string[];
} {
  const links: DrawnLink[] = [];
  const mentions: string[] = [];
  let text = '';
  let open: { href: string; start: number } | undefined;
  let code = 0;
  const pattern = /<(\/?)([a-z-]+)([^>]*)>|<|[^<]+/gi;
  for (const match of html.matchAll(pattern)) {
    const [whole, closing, name, attributes] = match;
    if (whole === '<') throw new Error('Telegram refuses a "<" that starts no tag');
    if (name === undefined) {
      if (/&(?!(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);)/i.test(whole)) {
        throw new Error(`Telegram refuses an "&" that starts no entity: ${whole}`);
      }
      const shown = telegramEntities(whole);
      if (open === undefined && code === 0) {
        for (const url of shown.match(/https?:\/\/[^\s<]+/g) ?? []) links.push({ label: url, url });
        mentions.push(...(shown.match(/@[A-Za-z0-9_]{5,32}/g) ?? []));
      }
      text += shown;
      continue;
    }
    if (name === 'code' || name === 'pre') code += closing === '/' ? -1 : 1;
    if (!telegramTags.has(name.toLowerCase()))
      throw new Error(`Telegram refuses the tag <${name}>`);
    if (name === 'a' && closing === '') {
      const href = /href="([^"]*)"/.exec(attributes ?? '')?.[1];
      open = { href: telegramEntities(href ?? ''), start: text.length };
    }
    if (name === 'a' && closing === '/' && open) {
      links.push({ label: text.slice(open.start), url: open.href });
      open = undefined;
    }
  }
  return { text, links, mentions };
}

function drawnTelegram(body: Record<string, unknown>): Drawn {
  const parsed = parseTelegramHtml(
    body.parse_mode === 'HTML' ? String(body.text) : escapeTelegram(String(body.text)),
  );
  const [title = '', ...rest] = parsed.text.split('\n');
  return { title, text: rest.join('\n'), links: parsed.links, mentions: parsed.mentions };
}

function escapeTelegram(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

// ntfy ----------------------------------------------------------------------------------------

/** A header as ntfy reads it: an RFC 2047 encoded word decoded, else as it is. */
export function ntfyHeader(value: string): string {
  const word = /^=\?UTF-8\?B\?(.*)\?=$/i.exec(value);
  return word ? Buffer.from(word[1]!, 'base64').toString('utf8') : value;
}

function drawnNtfy(delivery: Delivery): Drawn {
  const actions = delivery.headers.actions
    ? (JSON.parse(ntfyHeader(delivery.headers.actions)) as { label: string; url: string }[])
    : [];
  const links = actions.map(({ label, url }) => ({ label, url }));
  if (delivery.headers.click) links.push({ label: 'click', url: delivery.headers.click });
  return {
    title: ntfyHeader(delivery.headers.title ?? ''),
    text: delivery.body,
    links,
    mentions: [],
  };
}
