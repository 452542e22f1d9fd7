import { cleanThirdPartyText } from '../../lib/index.js';
import type { AlertMessage, AlertSection, Line } from './message.js';

/**
 * What every renderer shares (docs/watch-engine.md, "Alerts and renderers"): a line written in a
 * channel's markup, with every piece of text escaped by it and every link written by it; and
 * blocks of lines cut, whole lines at a time, to the size the channel takes, with "and N more"
 * for what was left out.
 */

/** How a channel writes text and links. */
export interface Markup {
  /** Text as the channel shows it literally: no markup, no mention, no link comes out of it. */
  text: (text: string) => string;
  /** A link, named where the channel can hide its URL. */
  link: (url: string, label: string) => string;
  /** Escaped text in bold, where the channel has bold. */
  bold: (escaped: string) => string;
  /** Escaped third-party text, set apart where the channel must (else as it is). */
  data?: (escaped: string) => string;
}

/** Text as it is, each link its name and URL: ntfy's body, an e-mail's text part. */
export const plainMarkup: Markup = {
  text: (text) => text,
  link: (url, label) => `${label}: ${url}`,
  bold: (escaped) => escaped,
};

/**
 * The most of one piece of text a line shows. Third-party text is clipped where it enters (a few
 * hundred characters); an event kept before that may hold more, and one piece must never fill a
 * channel's block alone.
 */
export const maxSpanChars = 500;

/**
 * One piece of text as one line's worth, by the rule third-party text is cleaned by where it
 * enters (`cleanThirdPartyText`, which calls `replaceUnsafeCharacters`): line breaks read as
 * spaces, every other control and invisible bidi or zero-width character U+FFFD, clipped with an
 * ellipsis. Again here, since an event kept before that rule, or a list's words from the zone
 * list, must not turn a chat's line around either.
 */
export function spanText(text: string, max = maxSpanChars): string {
  return cleanThirdPartyText(text, max);
}

/** At most `max` characters (code points, so no pair is split), the last one `…` when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/** A line in a channel's markup. */
export function renderLine(line: Line, message: AlertMessage, markup: Markup): string {
  return line
    .map((span) => {
      if (typeof span === 'string') return markup.text(spanText(span));
      if ('data' in span) {
        const escaped = markup.text(spanText(span.data));
        return markup.data ? markup.data(escaped) : escaped;
      }
      const { url, label } = message.links[span.link]!;
      return markup.link(url, markup.text(spanText(label)));
    })
    .join('');
}

/** A block: an optional first line (a heading, never cut) and lines that may be cut. */
export interface Block {
  head?: string;
  lines: string[];
}

/** A section as a block: its heading in bold. */
export function sectionBlock(
  section: AlertSection,
  message: AlertMessage,
  markup: Markup,
  heading: (escaped: string) => string = markup.bold,
): Block {
  return {
    ...(section.heading === undefined ? {} : { head: heading(markup.text(section.heading)) }),
    lines: section.lines.map((line) => renderLine(line, message, markup)),
  };
}

/**
 * The blocks, each joined by `\n` and together by `between`, cut to `limit` as `measure` counts
 * it: the block with the most lines gives up its last one first, and each block that gave some
 * up ends in the channel's "and N more". A block reduced to its heading and that line, and still
 * too long, is cut as text.
 */
export function fitBlocks(
  blocks: readonly Block[],
  limit: number,
  options: {
    measure?: (text: string) => number;
    between?: string;
    more: (n: number) => string;
  },
): string {
  const measure = options.measure ?? ((text: string) => text.length);
  const between = options.between ?? '\n\n';
  const state = blocks.map((block) => ({ ...block, lines: [...block.lines], dropped: 0 }));
  const render = () =>
    state
      .map((block) =>
        [
          ...(block.head === undefined ? [] : [block.head]),
          ...block.lines,
          ...(block.dropped > 0 ? [options.more(block.dropped)] : []),
        ].join('\n'),
      )
      .filter((text) => text !== '')
      .join(between);
  let text = render();
  while (measure(text) > limit) {
    const longest = state.reduce<(typeof state)[number] | undefined>(
      (best, block) =>
        block.lines.length > 0 && (best === undefined || block.lines.length > best.lines.length)
          ? block
          : best,
      undefined,
    );
    if (longest === undefined) return cutTo(text, limit, measure);
    longest.lines.pop();
    longest.dropped += 1;
    text = render();
  }
  return text;
}

/** The longest start of the text that, ended by `…`, `measure` says fits (a binary search). */
function cutTo(text: string, limit: number, measure: (text: string) => number): string {
  const points = Array.from(text);
  const cut = (keep: number) => `${points.slice(0, keep).join('')}…`;
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (measure(cut(middle)) <= limit) low = middle;
    else high = middle - 1;
  }
  return cut(low);
}

/**
 * The whole message as blocks of lines, for a channel that shows one body (ntfy, Telegram, an
 * e-mail's text, Slack's `text`): each section, the state now as `name: value` lines, what to do
 * now, the watch page's link by name, and an e-mail's foot.
 */
export function bodyBlocks(message: AlertMessage, markup: Markup): Block[] {
  const page = message.links.findIndex((link) => link.rel === 'page');
  const field = (name: string) => markup.bold(markup.text(`${name}:`));
  return [
    ...message.sections.map((section) => sectionBlock(section, message, markup)),
    ...(message.fields.length > 0
      ? [
          {
            lines: message.fields.map(
              (each) => `${field(each.name)} ${renderLine(each.value, message, markup)}`,
            ),
          },
        ]
      : []),
    ...(message.action ? [sectionBlock(message.action, message, markup)] : []),
    ...(page >= 0 ? [{ lines: [renderLine([{ link: page }], message, markup)] }] : []),
    ...(message.footer ? [sectionBlock(message.footer, message, markup)] : []),
  ];
}
