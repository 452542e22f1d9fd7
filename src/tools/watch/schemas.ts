import { z } from '@hono/zod-openapi';
import { maxCallerSelectors } from '../../reputation/index.js';
import {
  maxConfirmations,
  watchKindSchema,
  watchLangSchema,
  watchViewSchema,
} from '../../watch/index.js';
import { captchaFields, quotaStatusSchema } from '../common/index.js';

/** The watch routes' request and answer bodies; the watch itself is src/watch/model/schemas.ts. */

/** The demo world's listed address (`npm run demo`), as the IP tool's examples. */
const exampleTarget = '192.0.3.20';
/** The demo world's mail domain and its DKIM selector, as the mail tool's example. */
const exampleMailWatch = { target: 'demo-mail.net', kind: 'mail', dkim_selectors: ['google'] };

const webhookUrl = z.string().max(2048).openapi({
  description:
    'Where each change is POSTed, signed as Standard Webhooks specifies: http or https, reaching a public address only (WEBHOOK_ALLOW_NETWORKS may allow others).',
  example: 'https://hooks.example.com/reputation',
});

/** Chat formats and the language of their messages (docs/watches.md, "Chat formats"). */
const chatFields = {
  webhook_format: z.string().max(16).optional().openapi({
    description:
      'standard (the signed event), slack (also Mattermost, Rocket.Chat), discord, telegram (the Bot API’s sendMessage URL, chat_id in its query) or ntfy; anything else is 400 invalid_webhook. Absent: slack for hooks.slack.com, discord for discord.com/api/webhooks, telegram for api.telegram.org, ntfy for ntfy.sh, else standard (a new URL) or the format set (the same URL).',
    example: 'slack',
  }),
  lang: watchLangSchema.optional().openapi({
    description:
      'The language of chat messages: en or ru. Absent at creation: ?lang= or Accept-Language, else en.',
  }),
};

const email = z.string().max(254).nullable().optional().openapi({
  description:
    'Where alerts are e-mailed (text and HTML, in lang), once the address confirms through the link of the one message sent first; needs the operator’s SMTP_URL (else 422 email_unavailable). null removes it. At most 3 confirmation messages per address and per caller a day.',
  example: 'postmaster@example.org',
});

const intervalS = z.number().int().openapi({
  description:
    'Seconds between checks: from WATCH_MIN_INTERVAL_S (900 by default) up; WATCH_INTERVAL_S (3600) when absent.',
  example: 3600,
});

const confirmations = z.number().int().min(1).max(maxConfirmations).openapi({
  description:
    'Checks in a row that must agree before a listing or delisting is reported (1 to 5, default 2); the confirming checks come within a minute.',
  example: 2,
});

export const createWatchRequest = z
  .object({
    target: z.string().max(1024).openapi({
      description:
        'For kind ip: an IPv4 address, an IPv6 address or a host name; for kind domain: a sending domain; for kind mail: a domain whose mail setup is watched.',
      example: exampleTarget,
    }),
    kind: watchKindSchema.optional().openapi({ description: 'ip (default), domain or mail.' }),
    dkim_selectors: z
      .array(z.string().max(63))
      .max(maxCallerSelectors)
      .optional()
      .openapi({
        description: `Kind mail only: up to ${maxCallerSelectors} DKIM selectors asked at every check, besides the common ones and those the watch has found keys at (docs/watches.md, Mail watches).`,
        example: exampleMailWatch.dkim_selectors,
      }),
    interval_s: intervalS.optional(),
    webhook_url: webhookUrl.nullable().optional(),
    confirmations: confirmations.optional(),
    email,
    ...chatFields,
    ...captchaFields,
  })
  .openapi('WatchCreateRequest', {
    example: { target: exampleTarget },
    examples: [{ target: exampleTarget }, exampleMailWatch],
  });

export const updateWatchRequest = z
  .object({
    interval_s: intervalS.optional(),
    webhook_url: webhookUrl.nullable().optional().openapi({
      description:
        'A new URL gets a new secret, shown once in the answer; null removes the webhook. Naming it again resumes paused deliveries.',
    }),
    ...chatFields,
    email: email.openapi({
      description:
        'A new address is sent a confirmation link and gets no alert before it is confirmed; the same address again, while unconfirmed, is sent a new link; null stops the e-mails.',
    }),
    paused: z.boolean().optional().openapi({ description: 'A paused watch is not re-checked.' }),
    confirmations: confirmations.optional(),
  })
  .openapi('WatchUpdateRequest', { example: { interval_s: 7200 } });

const links = {
  badge_url: z.string().openapi({ description: 'The live SVG badge.' }),
  page_url: z.string().openapi({ description: 'The live share page.' }),
};

const webhookSecret = z.string().optional().openapi({
  description:
    'Shown once, with a new webhook_url: whsec_ and the base64 of 32 random bytes, the HMAC-SHA256 key of the signatures.',
});

export const createdWatchSchema = watchViewSchema
  .extend({
    manage_key: z.string().openapi({
      description:
        'Shown once: the bearer token of PATCH, DELETE and the test event. Only its hash is kept.',
    }),
    webhook_secret: webhookSecret,
    ...links,
    ...quotaStatusSchema.shape,
  })
  .openapi('WatchCreated');

export const updatedWatchSchema = watchViewSchema
  .extend({ webhook_secret: webhookSecret, ...links })
  .openapi('WatchUpdated');

export const publicWatchSchema = watchViewSchema.extend(links).openapi('WatchPublicView');

export const testQueuedSchema = z
  .object({ queued: z.literal('watch.test') })
  .openapi('WatchTestQueued');

export const watchIdParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, description: 'The watch id' }),
});
