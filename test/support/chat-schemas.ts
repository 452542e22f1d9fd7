import { z } from 'zod';
import { type Delivery, ntfyHeader, telegramRuns } from './chat-apps.js';

/**
 * Each chat app's payload as its documentation states it (docs/watches.md, "Chat formats", where
 * the limits are cited), as strict zod schemas: a field the app does not know, a text past its
 * limit or a block the app does not take fails the parse.
 *
 * - Slack Block Kit: 50 blocks; a header's plain_text 150 characters; a section's text 3000, its
 *   fields 10 of 2000; an actions block 25 elements; a button's text 75, its URL 3000.
 * - Discord's embed limits: title 256, description 4096, 25 fields, a field's name 256 and value
 *   1024, footer 2048, 6000 in all; 10 embeds; `content` 2000.
 * - Telegram's sendMessage: 1-4096 characters of text after its entities are parsed, in its HTML
 *   style's tags only.
 * - ntfy: a body of 4,096 bytes at most, a title of 1 KB, tags of 512 bytes, 3 actions.
 */

const plainText = (max: number) =>
  z.strictObject({
    type: z.literal('plain_text'),
    text: z.string().min(1).max(max),
    emoji: z.boolean().optional(),
  });
const mrkdwn = (max: number) =>
  z.strictObject({
    type: z.literal('mrkdwn'),
    text: z.string().min(1).max(max),
    verbatim: z.boolean().optional(),
  });

const slackBlock = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('header'), text: plainText(150) }),
  z
    .strictObject({
      type: z.literal('section'),
      text: mrkdwn(3000).optional(),
      fields: z.array(mrkdwn(2000)).min(1).max(10).optional(),
    })
    .refine((section) => section.text !== undefined || section.fields !== undefined, {
      message: 'a section needs text or fields',
    }),
  z.strictObject({
    type: z.literal('actions'),
    elements: z
      .array(
        z.strictObject({
          type: z.literal('button'),
          text: plainText(75),
          url: z.url().max(3000),
          action_id: z.string().min(1).max(255),
        }),
      )
      .min(1)
      .max(25),
  }),
]);

export const slackMessageSchema = z.strictObject({
  // Slack truncates `text` past 40,000 characters; with blocks it is the notification's text.
  text: z.string().min(1).max(40_000),
  blocks: z.array(slackBlock).min(1).max(50),
});

const discordField = z.strictObject({
  name: z.string().min(1).max(256),
  value: z.string().min(1).max(1024),
  inline: z.boolean().optional(),
});

const discordEmbed = z.strictObject({
  title: z.string().min(1).max(256).optional(),
  url: z.url().optional(),
  description: z.string().min(1).max(4096).optional(),
  color: z.number().int().min(0).max(0xffffff).optional(),
  fields: z.array(discordField).max(25).optional(),
  timestamp: z.iso.datetime().optional(),
  footer: z.strictObject({ text: z.string().min(1).max(2048) }).optional(),
});

/** Discord counts the title, description, fields' names and values, footer and author together. */
function embedChars(embed: z.infer<typeof discordEmbed>): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0)
  );
}

export const discordMessageSchema = z
  .strictObject({
    content: z.string().min(1).max(2000).optional(),
    allowed_mentions: z.strictObject({ parse: z.array(z.enum(['roles', 'users', 'everyone'])) }),
    embeds: z.array(discordEmbed).min(1).max(10),
  })
  .refine((message) => message.embeds.reduce((sum, embed) => sum + embedChars(embed), 0) <= 6000, {
    message: 'more than 6000 characters in the embeds',
  });

export const telegramMessageSchema = z
  .strictObject({
    chat_id: z.string().optional(),
    text: z.string().min(1),
    parse_mode: z.literal('HTML'),
    link_preview_options: z.strictObject({ is_disabled: z.boolean() }),
  })
  .refine(
    (message) => {
      const { length } = telegramRuns(message.text)
        .map((run) => run.text)
        .join('');
      return length >= 1 && length <= 4096;
    },
    { message: 'Telegram takes 1-4096 characters of text once its entities are parsed' },
  );

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** An ntfy publish as its "Limitations" and "Action buttons" state them; throws what breaks one. */
export function checkNtfy(delivery: Delivery): void {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(delivery.headers)) {
    if (value !== undefined && !/^[\x20-\x7e]*$/.test(value)) problems.push(`${name} is not ASCII`);
  }
  const title = ntfyHeader(delivery.headers.title ?? '');
  if (title === '' || bytes(title) > 1024) problems.push(`title of ${bytes(title)} bytes`);
  if (bytes(delivery.headers.tags ?? '') > 512) problems.push('tags over 512 bytes');
  if (!/^[1-5]$/.test(delivery.headers.priority ?? '')) problems.push('priority not 1-5');
  if (bytes(delivery.body) > 4096) problems.push(`body of ${bytes(delivery.body)} bytes`);
  const actions = z
    .array(z.strictObject({ action: z.literal('view'), label: z.string().min(1), url: z.url() }))
    .max(3)
    .safeParse(JSON.parse(delivery.headers.actions ?? '[]'));
  if (!actions.success) problems.push(`actions: ${actions.error.message}`);
  if (problems.length > 0) throw new Error(`ntfy would refuse or cut it: ${problems.join('; ')}`);
}
