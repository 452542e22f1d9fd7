import { z } from 'zod';

/**
 * A watch's e-mail as zod schemas (docs/watches.md, "E-mail"): what its configuration keeps, what
 * a pending delivery says about the message to send, and what the views show.
 */

const instant = z.iso.datetime();

export const watchEmailSchema = z.object({
  address: z.string(),
  /** Confirmed by the POST of its confirmation link: only then are alerts sent to it. */
  confirmed: z.boolean(),
  /** SHA-256 of the confirmation code, base64url, while unconfirmed: the code is never kept. */
  code_hash: z.string().optional(),
  /** The link's end: 24 hours after the message was queued. */
  code_expires_at: instant.optional(),
  /**
   * The one-click unsubscribe code of every alert's List-Unsubscribe URL. Kept as the webhook
   * secret is, since each alert carries it; a POST's code is compared with it as hashes.
   */
  unsubscribe: z.string(),
});
export type WatchEmail = z.infer<typeof watchEmailSchema>;

/** A pending delivery that is an e-mail: to whom, which message, and its confirmation code. */
export const pendingEmailSchema = z.object({
  to: z.string(),
  kind: z.enum(['confirm', 'alert']),
  /** A confirmation's code, kept until its message is sent (the configuration has its hash). */
  code: z.string().optional(),
  /**
   * A confirmation's link's end, as the configuration had it when queued: another value there
   * means a newer link was asked for since, and this message, whose link no longer works, is
   * dropped unsent.
   */
  expires_at: z.string().optional(),
  /**
   * A confirmation's units of the day's allowances (src/watch/email/allowance.ts): given back when
   * an attempt fails, so a message never sent costs nobody a confirmation; `returned` once they
   * are, and a later attempt that gets through counts them again.
   */
  allowance: z.object({ keys: z.array(z.string()), until: z.number() }).optional(),
  returned: z.boolean().optional(),
});
export type PendingEmail = z.infer<typeof pendingEmailSchema>;

/** The last attempt at one of the watch's e-mails: what the view shows the manage key's holder. */
export const emailDeliverySchema = z
  .object({
    outcome: z.enum(['sent', 'failed']).meta({
      description: 'sent: the SMTP relay took the message; failed: it did not (see reason).',
    }),
    kind: z.enum(['confirm', 'alert']).meta({
      description: 'The confirmation of the address, or an alert.',
    }),
    at: z.iso.datetime(),
    reason: z.string().optional().meta({
      description:
        'Why it failed, as the relay or the connection said (addresses masked, at most 300 characters); failed only.',
    }),
    retry_at: z.iso.datetime().optional().meta({
      description: 'When it is tried again; absent after a permanent refusal or the last attempt.',
    }),
  })
  .meta({ id: 'WatchEmailDelivery' });
export type EmailDelivery = z.infer<typeof emailDeliverySchema>;

export const emailViewSchema = z
  .object({
    address: z.string().meta({
      description:
        'Masked (a***@example.com), except to the manage key’s holder: GET with Authorization: Bearer <manage_key>, and the answers of POST and PATCH.',
    }),
    confirmed: z.boolean().meta({
      description:
        'Whether the address confirmed through the link of its confirmation message; nothing but that message is sent to it before.',
    }),
    last_delivery: emailDeliverySchema.optional().meta({
      description:
        'The last attempt at an e-mail of this watch, once one was made: to the manage key’s holder only (GET with Authorization: Bearer <manage_key>).',
    }),
  })
  .nullable()
  .meta({ id: 'WatchEmail' });
export type EmailView = z.infer<typeof emailViewSchema>;
