/**
 * A chat message as its app reads it, for the tests (docs/watches.md, "Chat formats"): each
 * format's payload parsed by the rules the app documents into parts of runs (text, bold, code, a
 * link, a mention), from which the tests read what a reader sees (`drawn`) and draw a preview of
 * it in a browser (chat-previews.ts).
 *
 * - Slack mrkdwn (`verbatim: true`): `<…>` control sequences (a link, `<!…>`, `<@…>`, `<#…>`),
 *   `*bold*`, and `&amp;`, `&lt;`, `&gt;`.
 * - Discord markdown: backslash escapes, `**bold**`, masked links, bare URLs, mentions.
 * - Telegram's HTML style: its tags and entities (any other tag is a refusal), and the URLs and
 *   @names Telegram finds in text itself, outside links and code.
 * - ntfy: a plain text body, whose URLs its apps make links; an RFC 2047 title; JSON actions.
 */

export type ChatFormat = 'slack' | 'discord' | 'telegram' | 'ntfy';

/** A piece of text as the app draws it. */
export interface Run {
  text: string;
  bold?: boolean;
  code?: boolean;
  /** A link's URL. */
  link?: string;
  /** Would notify someone. */
  mention?: boolean;
}

export interface Part {
  kind: 'title' | 'text' | 'field' | 'button';
  /** A field's name. */
  name?: string;
  runs: Run[];
}

/** A message as the app draws it: its parts in order, and the colour it is drawn with. */
export interface DrawnParts {
  parts: Part[];
  /** `#rrggbb`: a Discord embed's bar. */
  colour?: string;
  /** Mentions notify no one (Discord's `allowed_mentions: { parse: [] }`). */
  silenced?: boolean;
  /** A link the whole title is (Discord's embed URL). */
  titleLink?: string;
}

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

export function drawnParts(format: ChatFormat, delivery: Delivery): DrawnParts {
  if (format === 'ntfy') return ntfyParts(delivery);
  const body = JSON.parse(delivery.body) as Record<string, unknown>;
  if (format === 'slack') return slackParts(body);
  if (format === 'discord') return discordParts(body);
  return telegramParts(body);
}

export function drawn(format: ChatFormat, delivery: Delivery): Drawn {
  const message = drawnParts(format, delivery);
  const textOf = (runs: Run[]) => runs.map((run) => run.text).join('');
  const title = message.parts.find((part) => part.kind === 'title');
  const runs = message.parts.flatMap((part) => part.runs);
  const links = message.parts.flatMap((part) =>
    part.runs.flatMap((run) => (run.link ? [{ label: run.text, url: run.link }] : [])),
  );
  if (message.titleLink && title) links.push({ label: textOf(title.runs), url: message.titleLink });
  return {
    title: title ? textOf(title.runs) : '',
    text: message.parts
      .filter((part) => part.kind !== 'title')
      .map((part) => (part.name === undefined ? '' : `${part.name}\n`) + textOf(part.runs))
      .join('\n'),
    links,
    mentions: message.silenced ? [] : runs.filter((run) => run.mention).map((run) => run.text),
  };
}

/** The mentions an app's markup holds, notified or not (Discord draws them even when silenced). */
export function mentionsWritten(format: ChatFormat, delivery: Delivery): string[] {
  return drawnParts(format, delivery)
    .parts.flatMap((part) => part.runs)
    .filter((run) => run.mention)
    .map((run) => run.text);
}

/** Adjacent plain runs joined, so text reads as one. */
function merged(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    const last = out.at(-1);
    const plain = (each: Run) => !each.bold && !each.code && !each.link && !each.mention;
    if (last && plain(last) && plain(run)) last.text += run.text;
    else if (run.text !== '') out.push({ ...run });
  }
  return out;
}

// Slack ---------------------------------------------------------------------------------------

interface SlackText {
  type: string;
  text: string;
}

function slackEntities(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

function slackRuns(text: string, type: string): Run[] {
  if (type === 'plain_text') return [{ text }];
  const runs: Run[] = [];
  for (const match of text.matchAll(/<([^>]*)>|\*([^*\n]+)\*|[^<*]+|[<*]/g)) {
    const [whole, control, bold] = match;
    if (control !== undefined) {
      if (/^[!@#]/.test(control)) runs.push({ text: `<${control}>`, mention: true });
      else {
        const [url = '', label = url] = control.split('|');
        runs.push({ text: slackEntities(label), link: slackEntities(url) });
      }
    } else if (bold !== undefined) runs.push({ text: slackEntities(bold), bold: true });
    else runs.push({ text: slackEntities(whole) });
  }
  return merged(runs);
}

function slackParts(body: Record<string, unknown>): DrawnParts {
  const parts: Part[] = [];
  for (const block of (body.blocks ?? []) as Record<string, unknown>[]) {
    if (block.type === 'header') {
      const text = block.text as SlackText;
      parts.push({ kind: 'title', runs: slackRuns(text.text, text.type) });
    }
    if (block.type === 'section') {
      const text = block.text as SlackText | undefined;
      if (text) parts.push({ kind: 'text', runs: slackRuns(text.text, text.type) });
      for (const field of (block.fields ?? []) as SlackText[]) {
        parts.push({ kind: 'field', runs: slackRuns(field.text, field.type) });
      }
    }
    if (block.type === 'actions') {
      for (const button of block.elements as { text: SlackText; url: string }[]) {
        parts.push({ kind: 'button', runs: [{ text: button.text.text, link: button.url }] });
      }
    }
  }
  return { parts };
}

// Discord -------------------------------------------------------------------------------------

function discordRuns(text: string): Run[] {
  const runs: Run[] = [];
  let bold = false;
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const take = (length: number, run: Run) => {
      runs.push(bold ? { ...run, bold: true } : run);
      at += length;
    };
    const escaped = /^\\([^\sA-Za-z0-9])/.exec(rest);
    if (escaped) {
      take(2, { text: escaped[1]! });
      continue;
    }
    if (rest.startsWith('**')) {
      bold = !bold;
      at += 2;
      continue;
    }
    const masked = /^\[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)/.exec(rest);
    if (masked) {
      const label = discordRuns(masked[1]!)
        .map((run) => run.text)
        .join('');
      take(masked[0].length, { text: label, link: masked[2]! });
      continue;
    }
    const mention = /^(<@[!&]?\d+>|<#\d+>|@everyone|@here)/.exec(rest);
    if (mention) {
      take(mention[0].length, { text: mention[1]!, mention: true });
      continue;
    }
    const url = /^https?:\/\/[^\s<]+[^\s<.,:;"')\]]/.exec(rest);
    if (url) {
      take(url[0].length, { text: url[0], link: url[0] });
      continue;
    }
    take(1, { text: text[at]! });
  }
  return merged(runs);
}

function discordParts(body: Record<string, unknown>): DrawnParts {
  const parts: Part[] = [];
  if (typeof body.content === 'string')
    parts.push({ kind: 'text', runs: discordRuns(body.content) });
  const [embed] = (body.embeds ?? []) as {
    title?: string;
    url?: string;
    description?: string;
    color?: number;
    fields?: { name: string; value: string }[];
  }[];
  if (embed?.title !== undefined) parts.push({ kind: 'title', runs: discordRuns(embed.title) });
  if (embed?.description) parts.push({ kind: 'text', runs: discordRuns(embed.description) });
  for (const field of embed?.fields ?? []) {
    parts.push({ kind: 'field', name: field.name, runs: discordRuns(field.value) });
  }
  return {
    parts,
    ...(embed?.color === undefined
      ? {}
      : { colour: `#${embed.color.toString(16).padStart(6, '0')}` }),
    silenced:
      JSON.stringify((body.allowed_mentions as { parse?: unknown } | undefined)?.parse) === '[]',
    ...(embed?.url ? { titleLink: embed.url } : {}),
  };
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

/** Text outside a link and code, with the URLs and @names Telegram finds in it itself. */
function telegramFound(text: string, style: Run): Run[] {
  const runs: Run[] = [];
  for (const match of text.matchAll(/(https?:\/\/[^\s<]+)|(@[A-Za-z0-9_]{5,32})|[^h@]+|[h@]/g)) {
    const [whole, url, name] = match;
    if (url) runs.push({ ...style, text: url, link: url });
    else if (name) runs.push({ ...style, text: name, mention: true });
    else runs.push({ ...style, text: whole });
  }
  return runs;
}

/**
 * Telegram's HTML as the Bot API parses it into runs; an unknown tag, or a `<` or `&` that starts
 * none, throws, as the API refuses the message.
 */
export function telegramRuns(html: string): Run[] {
  const runs: Run[] = [];
  let bold = 0;
  let code = 0;
  let href: string | undefined;
  for (const match of html.matchAll(/<(\/?)([a-z-]+)([^>]*)>|<|[^<]+/gi)) {
    const [whole, closing, name, attributes] = match;
    if (whole === '<') throw new Error('Telegram refuses a "<" that starts no tag');
    if (name === undefined) {
      if (/&(?!(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);)/i.test(whole)) {
        throw new Error(`Telegram refuses an "&" that starts no entity: ${whole}`);
      }
      const text = telegramEntities(whole);
      const style: Run = { text: '', ...(bold > 0 ? { bold: true } : {}) };
      if (href !== undefined) runs.push({ ...style, text, link: href });
      else if (code > 0) runs.push({ ...style, text, code: true });
      else runs.push(...telegramFound(text, style));
      continue;
    }
    const tag = name.toLowerCase();
    if (!telegramTags.has(tag)) throw new Error(`Telegram refuses the tag <${name}>`);
    const step = closing === '/' ? -1 : 1;
    if (tag === 'b' || tag === 'strong') bold += step;
    if (tag === 'code' || tag === 'pre') code += step;
    if (tag === 'a') {
      href =
        closing === '/'
          ? undefined
          : telegramEntities(/href="([^"]*)"/.exec(attributes ?? '')?.[1] ?? '');
    }
  }
  return merged(runs);
}

function telegramParts(body: Record<string, unknown>): DrawnParts {
  const text = String(body.text);
  const runs =
    body.parse_mode === 'HTML'
      ? telegramRuns(text)
      : telegramFound(text, { text: '' }).filter((run) => run.text !== '');
  // The first line is the message's title.
  const title: Run[] = [];
  const rest: Run[] = [];
  let inTitle = true;
  for (const run of runs) {
    if (!inTitle) {
      rest.push(run);
      continue;
    }
    const end = run.text.indexOf('\n');
    if (end < 0) title.push(run);
    else {
      title.push({ ...run, text: run.text.slice(0, end) });
      rest.push({ ...run, text: run.text.slice(end + 1) });
      inTitle = false;
    }
  }
  return {
    parts: [
      { kind: 'title', runs: merged(title) },
      { kind: 'text', runs: merged(rest) },
    ],
  };
}

// ntfy ----------------------------------------------------------------------------------------

/** A header as ntfy reads it: an RFC 2047 encoded word decoded, else as it is. */
export function ntfyHeader(value: string): string {
  const word = /^=\?UTF-8\?B\?(.*)\?=$/i.exec(value);
  return word ? Buffer.from(word[1]!, 'base64').toString('utf8') : value;
}

function ntfyParts(delivery: Delivery): DrawnParts {
  const actions = delivery.headers.actions
    ? (JSON.parse(delivery.headers.actions) as { label: string; url: string }[])
    : [];
  return {
    parts: [
      { kind: 'title', runs: [{ text: ntfyHeader(delivery.headers.title ?? '') }] },
      // ntfy's apps make links of the URLs in a plain text body themselves.
      {
        kind: 'text',
        runs: merged(
          [...delivery.body.matchAll(/(https?:\/\/\S+)|[^h]+|h/g)].map(([whole, url]) =>
            url ? { text: url, link: url } : { text: whole },
          ),
        ),
      },
      ...actions.map((action): Part => ({
        kind: 'button',
        runs: [{ text: action.label, link: action.url }],
      })),
    ],
    ...(delivery.headers.click ? { titleLink: delivery.headers.click } : {}),
  };
}
