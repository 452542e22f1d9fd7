import { base64url, type RandomBytes } from '../../lib/index.js';

export { type Digest, hashOf, type RandomBytes, sameHash } from '../../lib/index.js';

/**
 * The random names and keys of a watch, from the platform's random bytes (Web Crypto on both
 * runtimes), and the hashes that stand in for the manage key in the store (src/lib/secrets.ts, which
 * the reports inboxes' keys share). Webhook secrets are src/webhooks/signing.ts's.
 */

/** 128 random bits, base64url (22 characters): a watch's id, as result tokens are. */
export const newWatchId = (random: RandomBytes) => base64url(random(16));

/** 256 random bits, base64url (43 characters): shown once, stored only as its hash. */
export const newManageKey = (random: RandomBytes) => base64url(random(32));

/** An event's id, the `webhook-id` of its every attempt: `evt_` and 128 random bits. */
export const newEventId = (random: RandomBytes) => `evt_${base64url(random(16))}`;
