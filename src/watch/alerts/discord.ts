import { clip, fitBlocks, type Markup, renderLine, sectionBlock } from './layout.js';
import type { AlertMessage, Verdict } from './message.js';

/**
 * Discord's webhook message (docs/watches.md, "Chat formats"): one embed coloured by the verdict,
 * its title linked to the watch page, the change in its description, the verdict, the lists and
 * what to do now as fields, links as names (`[name](url)`), the event's time.
 *
 * `allowed_mentions: { parse: [] }` on every message, so nothing in it notifies anyone, and every
 * piece of text has each character Discord's markdown reads escaped with a backslash: `@everyone`,
 * `<@123>`, `[x](https://…)`, `**`, a `#` heading or a `:` that would start a link or an emoji
 * stay as written.
 */

/** Discord's embed limits (docs/watches.md, "Chat formats": Discord's "Embed Limits"). */
export const discordLimits = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

/** The verdict's colour, as the cards draw it (src/share/card-theme.ts), as Discord's integer. */
export const discordColours: Record<Verdict, number> = {
  good: 0x16a34a,
  fair: 0xd97706,
  poor: 0xdc2626,
  unknown: 0x64748b,
};

// The characters of Discord's markdown: emphasis, code, spoilers, quotes, headings, lists,
// masked links, mentions and emoji, and the backslash itself.
const markdown = /[\\*_~`|<>@#[\]():-]/g;

export const discordMarkup: Markup = {
  text: (text) => text.replace(markdown, (character) => `\\${character}`),
  // A masked link's URL ends at `)`: percent-encoded, as RFC 3986 lets any character be.
  link: (url, label) => `[${label}](${url.replace(/[()\s]/g, encodeURIComponent)})`,
  bold: (escaped) => `**${escaped}**`,
};

export function discordPayload(message: AlertMessage): Record<string, unknown> {
  const moreLine = (n: number) => discordMarkup.text(message.more(n));
  const title = escapedWithin(message.title, discordLimits.title);
  const page = message.links.find((link) => link.rel === 'page');
  const fields = [
    ...message.fields.map((field) => ({
      name: clip(field.name, discordLimits.fieldName),
      value: fitBlocks(
        [{ lines: [renderLine(field.value, message, discordMarkup)] }],
        discordLimits.fieldValue,
        { more: moreLine },
      ),
      inline: true,
    })),
    ...(message.action
      ? [
          {
            name: clip(message.action.heading ?? '', discordLimits.fieldName),
            value: fitBlocks(
              [sectionBlock({ lines: message.action.lines }, message, discordMarkup)],
              discordLimits.fieldValue,
              { more: moreLine },
            ),
            inline: false,
          },
        ]
      : []),
  ].slice(0, discordLimits.fields);
  // Discord counts the title, description, fields' names and values and the footer together.
  const others =
    title.length + fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
  const description = fitBlocks(
    message.sections.map((section) => sectionBlock(section, message, discordMarkup)),
    Math.min(discordLimits.description, discordLimits.total - others),
    { more: moreLine },
  );
  return {
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title,
        ...(page ? { url: page.url } : {}),
        ...(description === '' ? {} : { description }),
        ...(message.verdict ? { color: discordColours[message.verdict] } : {}),
        fields,
        ...(message.at ? { timestamp: message.at } : {}),
      },
    ],
  };
}

/** Text escaped, clipped before escaping until the escaped text fits `limit`. */
function escapedWithin(text: string, limit: number): string {
  let keep = limit;
  let escaped = discordMarkup.text(clip(text, keep));
  while (escaped.length > limit) {
    keep = Math.max(1, keep - (escaped.length - limit));
    escaped = discordMarkup.text(clip(text, keep));
  }
  return escaped;
}
