import { bodyBlocks, clip, fitBlocks, type Markup, renderLine, sectionBlock } from './layout.js';
import type { AlertMessage } from './message.js';

/**
 * Slack's Block Kit (docs/watches.md, "Chat formats"): a header, a section per part of the change,
 * the verdict and the lists as fields, what to do now, and buttons for the watch page and the
 * delisting pages. `text` holds the whole message in mrkdwn, as it was before the blocks: Slack
 * shows it in notifications, Mattermost and Rocket.Chat (which take Slack's webhooks but draw
 * no blocks) as the message.
 *
 * Every text object is mrkdwn with `verbatim: true`, so Slack links no bare URL, channel or
 * mention in it, and every piece of text has `&`, `<` and `>` as entities (Slack's "Escaping
 * text"): nothing written by a list, a DNS record or a mail server becomes `<!channel>`, a
 * `<url|link>` or a `<@user>`. Slack has no escape for `*`, `_`, `~` and backticks: they may
 * style a word, never link or notify.
 */

/** Block Kit's limits (docs/watches.md, "Chat formats": Slack's block reference). */
export const slackLimits = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  buttonText: 75,
  buttonUrl: 3000,
  actionsElements: 25,
} as const;

/** The length of `text` kept, as before the blocks (Slack truncates past 40,000). */
const maxText = 3000;

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export const slackMarkup: Markup = {
  text: (text) => text.replace(/[&<>]/g, (character) => entities[character]!),
  // The URL too: `|` would end it, `>` the link (RFC 3986 lets either be percent-encoded).
  link: (url, label) =>
    `<${url.replace(/[&<>|]/g, (character) => (character === '|' ? '%7C' : entities[character]!))}|${label}>`,
  bold: (escaped) => `*${escaped}*`,
};

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });

export function slackPayload(message: AlertMessage): Record<string, unknown> {
  const { more } = message;
  const moreLine = (n: number) => slackMarkup.text(more(n));
  const section = (text: string) => ({ type: 'section', text: mrkdwn(text) });
  const blocks: Record<string, unknown>[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: clip(message.title, slackLimits.headerText), emoji: false },
    },
  ];
  for (const part of message.sections) {
    const text = fitBlocks([sectionBlock(part, message, slackMarkup)], slackLimits.sectionText, {
      more: moreLine,
    });
    blocks.push(section(text));
  }
  if (message.fields.length > 0) {
    blocks.push({
      type: 'section',
      fields: message.fields.slice(0, slackLimits.fields).map((field) =>
        mrkdwn(
          fitBlocks(
            [
              {
                head: slackMarkup.bold(slackMarkup.text(field.name)),
                lines: [renderLine(field.value, message, slackMarkup)],
              },
            ],
            slackLimits.fieldText,
            { more: moreLine },
          ),
        ),
      ),
    });
  }
  if (message.action) {
    const text = fitBlocks(
      [sectionBlock(message.action, message, slackMarkup)],
      slackLimits.sectionText,
      { more: moreLine },
    );
    blocks.push(section(text));
  }
  const buttons = message.buttons
    .map((button) => ({ button, url: message.links[button.link]!.url }))
    .filter(({ url }) => url.length <= slackLimits.buttonUrl)
    .slice(0, slackLimits.actionsElements)
    .map(({ button, url }, index) => ({
      type: 'button',
      text: { type: 'plain_text', text: clip(button.label, slackLimits.buttonText), emoji: false },
      url,
      action_id: `link-${index}`,
    }));
  if (buttons.length > 0) blocks.push({ type: 'actions', elements: buttons });
  const text = fitBlocks(
    [
      { head: slackMarkup.bold(slackMarkup.text(message.title)), lines: [] },
      ...bodyBlocks(message, slackMarkup),
    ],
    maxText,
    { more: moreLine },
  );
  return { text, blocks: blocks.slice(0, slackLimits.blocks) };
}
