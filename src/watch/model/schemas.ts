import { z } from 'zod';
import { verdictSchema } from '../../reputation/index.js';
import { webhookFormats } from '../../webhooks/index.js';
import { emailViewSchema, pendingEmailSchema, watchEmailSchema } from '../email/index.js';
import {
  factSchema,
  listedOnSchema,
  listingChangeSchema,
  mailBriefSchema,
  mailChangeSchema,
  unconfirmedSchema,
  watchKindSchema,
  watchStatusSchema,
} from '../kinds/index.js';
import { noticeSchema } from './notices.js';
import { pauseAfterFailedEvents } from './schedule.js';

/**
 * A watch as zod schemas: the types the engine builds and stores, and (through the routes of
 * src/tools/watch/) the OpenAPI document. Plain zod with `.meta()`, as the check results (docs/openapi.md). A
 * watch lives under three keys, each written by one party, so none overwrites another's write
 * (docs/watches.md): its configuration (create and PATCH), its state (the re-checks) and its
 * webhook's delivery status (the deliveries).
 */

const instant = z.iso.datetime();

export const webhookFormatSchema = z.enum(webhookFormats).meta({
  description:
    'standard: the signed Standard Webhooks event; slack (Mattermost, Rocket.Chat), discord, telegram (the Bot API’s sendMessage URL), ntfy: a chat message (docs/watches.md, Chat formats).',
});

/** The language of a watch's chat messages. */
export const watchLangSchema = z.enum(['en', 'ru']);
export type WatchLang = z.infer<typeof watchLangSchema>;

/** Where the events of a watch go; the secret signs them (docs/watches.md, Signing). */
export const webhookSchema = z.object({
  url: z.string(),
  secret: z.string().meta({ description: '`whsec_` and the base64 of 32 random bytes.' }),
  /** Absent in a watch stored before chat formats: `standard`. */
  format: webhookFormatSchema.optional(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** Checks in a row that must agree before a change is reported, unless the watch sets its own. */
export const defaultConfirmations = 2;
export const maxConfirmations = 5;

export const watchConfigSchema = z
  .object({
    id: z.string().meta({ description: '128 random bits, base64url (22 characters).' }),
    /** What is looked up: an address in its canonical form, a host or domain name in ASCII. */
    target: z.string(),
    kind: watchKindSchema,
    interval_s: z.number().int().positive(),
    webhook: webhookSchema.nullable(),
    /** Where alerts are e-mailed once confirmed (docs/watches.md, "E-mail"); absent: none. */
    email: watchEmailSchema.nullable().optional(),
    /** SHA-256 of the manage key, base64url: the key itself is shown once and never stored. */
    manage_key_hash: z.string(),
    /**
     * The caller's id (HMAC-SHA-256 of its quota subject under the store's caller key, base64url;
     * src/operations/caller-ids.ts): the key of its per-caller cap, taken again by every PATCH.
     */
    caller_hash: z.string(),
    /** The id of the caller's network (an IPv4 /24, an IPv6 /48), as `caller_hash`: its cap. */
    network_hash: z.string().optional(),
    /**
     * Created with OPERATOR_TOKEN: its webhook may reach WEBHOOK_ALLOW_NETWORKS, and a PATCH
     * naming an address there needs the token again.
     */
    operator: z.boolean().optional(),
    paused: z.boolean(),
    /** Checks in a row that must agree on a change; absent (older watches): the default. */
    confirmations: z.number().int().min(1).max(maxConfirmations).optional(),
    /**
     * A host name's addresses when the watch was created: the ones re-checked, whatever the name
     * resolves to later (docs/watches.md, "Host names").
     */
    addresses: z.array(z.string()).optional(),
    /** A mail watch: the DKIM selectors its caller named, asked at every check. */
    dkim_selectors: z.array(z.string()).optional(),
    /** Its chat messages' language (absent: en). */
    lang: watchLangSchema.optional(),
    /** The public origin of its creation's request, for absolute links when PUBLIC_URL is unset. */
    origin: z.string().optional(),
    created_at: instant,
    /** Moved forward by every PATCH (WATCH_TTL_DAYS); past it the watch has ended. */
    expires_at: instant,
  })
  .meta({ id: 'WatchConfig' });
export type WatchConfig = z.infer<typeof watchConfigSchema>;

export const historyEntrySchema = z
  .object({
    at: instant,
    added: z.array(listingChangeSchema),
    removed: z.array(listingChangeSchema),
    changes: z.array(mailChangeSchema).optional().meta({
      description:
        'For a mail watch: what changed in its mail setup (added and removed are empty).',
    }),
    verdict: verdictSchema,
    score: z.number().int().min(0).max(100),
  })
  .meta({ id: 'WatchHistoryEntry' });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** History entries kept, newest first. */
export const maxHistory = 100;

export const watchEventTypeSchema = z.enum([
  'watch.listed',
  'watch.delisted',
  'watch.changed',
  'watch.test',
]);
export type WatchEventType = z.infer<typeof watchEventTypeSchema>;

export const watchEventSchema = z
  .object({
    type: watchEventTypeSchema.meta({
      description:
        'watch.listed when anything was newly listed, watch.delisted when listings were only removed, watch.changed when a mail watch’s mail setup changed, watch.test when asked for.',
    }),
    created_at: instant,
    data: z.object({
      watch: z.object({
        id: z.string(),
        target: z.string(),
        kind: watchKindSchema,
        page_url: z.string(),
        badge_url: z.string(),
      }),
      added: z.array(listingChangeSchema),
      removed: z.array(listingChangeSchema),
      listed_on: z.array(listedOnSchema),
      changes: z.array(mailChangeSchema).optional().meta({
        description: 'watch.changed: each change of the mail setup (a mail watch).',
      }),
      providers: mailBriefSchema.shape.providers.optional().meta({
        description: 'A mail watch: each mailbox provider’s verdict now.',
      }),
      verdict: verdictSchema,
      score: z.number().int().min(0).max(100),
    }),
  })
  .meta({
    id: 'WatchEvent',
    description:
      'The body of a webhook delivery in the standard format, signed as Standard Webhooks specifies (webhook-id, webhook-timestamp, webhook-signature). A chat format (webhook_format) sends a message built from it instead, signed the same way.',
  });
export type WatchEvent = z.infer<typeof watchEventSchema>;

/** A delivery to be made: one per event, kept until delivered, refused or out of retries. */
export const pendingDeliverySchema = z.object({
  /** The event's id: the `webhook-id` of every attempt. */
  id: z.string(),
  watch_id: z.string(),
  /** The event as sent, byte for byte the same on every attempt. */
  body: z.string(),
  /** Attempts made so far. */
  attempts: z.number().int().min(0),
  /** When it was queued (epoch ms): the oldest is dropped past WATCH_PENDING_DELIVERIES. */
  queued_at: z.number().optional(),
  /** A `watch.test` event: its watch's one pending test until its first attempt ends. */
  test: z.boolean().optional(),
  /** An e-mail to send instead of a webhook delivery: `body` is the event of an alert. */
  email: pendingEmailSchema.optional(),
  /**
   * A subsystem's notice (notices.ts), not a watch's: `body` is its event (empty for an address's
   * confirmation) and `watch_id` its owner, whose pending notices are capped as a watch's are.
   */
  notice: noticeSchema.optional(),
});
export type PendingDelivery = z.infer<typeof pendingDeliverySchema>;

export const watchStateSchema = z
  .object({
    /**
     * What the watch knows of its target, fact by fact (src/watch/kinds/facts.ts): each list's
     * status, for a domain each sender address's, for a mail watch its mail setup.
     */
    facts: z.array(factSchema),
    /** Changes heard and not yet confirmed, by the key of their fact. */
    unconfirmed: z.array(unconfirmedSchema).optional(),
    /** A host name watch: what the name resolved to at the last check, when not its address. */
    resolves_to: z.array(z.string()).optional(),
    checked_at: instant,
    next_check_at: instant,
    /**
     * While the next check is a confirming re-check: its due time, the regular check's, and the
     * confirming re-checks made since that one (at most `confirmations - 1`, schedule.ts).
     */
    confirming: z
      .object({ due_at: instant, regular_at: instant, used: z.number().int().min(1) })
      .optional(),
    status: watchStatusSchema,
    history: z.array(historyEntrySchema).max(maxHistory),
    /**
     * Deliveries recorded with the check that caused them and not yet handed to the delivery
     * queue: a process that stops in between leaves them here for the next re-check.
     */
    outbox: z.array(pendingDeliverySchema),
  })
  .meta({ id: 'WatchState' });
export type WatchState = z.infer<typeof watchStateSchema>;

export const deliveryOutcomeSchema = z.enum(['delivered', 'failed', 'gone', 'refused']).meta({
  description:
    'delivered: a 2xx answer; failed: another answer, no connection or no answer in time; gone: 410, the webhook was removed; refused: the URL led to a non-public address.',
});

export const webhookStatusSchema = z
  .object({
    last_delivery: z
      .object({
        outcome: deliveryOutcomeSchema,
        at: instant,
        status: z.number().int().optional().meta({ description: 'The HTTP status answered.' }),
      })
      .nullable()
      .meta({
        description:
          'The last delivery attempt: shown only to the manage key’s holder (GET with Authorization: Bearer <manage_key>), null to anyone else.',
      }),
    failed_events: z
      .number()
      .int()
      .min(0)
      .meta({
        description: `Events (tests included) with a failed attempt since the last 2xx answer; ${pauseAfterFailedEvents} pause the deliveries.`,
      }),
    paused: z.boolean().meta({
      description: `Deliveries paused after ${pauseAfterFailedEvents} failed events; a test answered 2xx, or a PATCH to another webhook_url, resumes them.`,
    }),
  })
  .meta({ id: 'WatchWebhookStatus' });
export type WebhookStatus = z.infer<typeof webhookStatusSchema>;

/** What anyone may read of a watch: never the manage key, the secret or the webhook URL's path. */
export const watchViewSchema = z
  .object({
    id: z.string(),
    target: z.string(),
    kind: watchKindSchema,
    interval_s: z.number().int(),
    paused: z.boolean(),
    confirmations: z.number().int().meta({
      description: 'Checks in a row that must agree before a listing or delisting is reported.',
    }),
    addresses: z.array(z.string()).optional().meta({
      description:
        'A host name watch: the address its first check checked, the one every re-check checks.',
    }),
    dkim_selectors: z.array(z.string()).optional().meta({
      description: 'A mail watch: the DKIM selectors its creator named, asked at every check.',
    }),
    resolves_to: z.array(z.string()).optional().meta({
      description:
        'A host name watch whose name no longer resolves to its address: what it resolved to at the last check (a note, never an event; the address is still the one checked).',
    }),
    lang: watchLangSchema.meta({ description: 'The language of its chat messages.' }),
    created_at: instant,
    expires_at: instant,
    ended: z.boolean().meta({ description: 'Past expires_at: no longer checked.' }),
    checked_at: instant.nullable(),
    next_check_at: instant.nullable(),
    status: watchStatusSchema.nullable(),
    history: z.array(historyEntrySchema).meta({
      description:
        'The last 100 changes, newest first, as many as fit in 64 K characters (the newest always); each with at most 64 listings added, 64 removed and 64 mail changes.',
    }),
    webhook: webhookStatusSchema
      .extend({
        origin: z.string().meta({ description: 'The webhook URL without its path.' }),
        format: webhookFormatSchema,
      })
      .nullable(),
    email: emailViewSchema,
  })
  .meta({ id: 'WatchView' });
export type WatchView = z.infer<typeof watchViewSchema>;
