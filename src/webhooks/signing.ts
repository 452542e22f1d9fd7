import { Webhook } from 'standardwebhooks';
import { base64 } from '../lib/index.js';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, through its own package,
 * standardwebhooks 1.1.1): `webhook-id` the event's id (the same on every retry, so a receiver
 * can drop a repeat), `webhook-timestamp` the attempt's Unix time in seconds, and
 * `webhook-signature` `v1,` and the base64 of HMAC-SHA256 over `{id}.{timestamp}.{body}` keyed by
 * the secret's bytes. The package is plain JavaScript (fast-sha256, @stablelib/base64, no `node:`
 * module), so the same code signs on Node and in workerd.
 */
export function signedHeaders(
  secret: string,
  eventId: string,
  at: Date,
  body: string,
): Record<string, string> {
  const seconds = Math.floor(at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': eventId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': new Webhook(secret).sign(eventId, new Date(seconds * 1000), body),
  };
}

/**
 * A webhook secret as Standard Webhooks writes one: `whsec_` and the base64 (RFC 4648 §4, with
 * padding) of 32 random bytes, the HMAC key.
 */
export function newWebhookSecret(randomBytes: (length: number) => Uint8Array): string {
  return `whsec_${base64(randomBytes(32))}`;
}
