import { base64url, utf8 } from '../../lib/index.js';

/**
 * The random names and keys of a watch, from the platform's random bytes (Web Crypto on both
 * runtimes), and the hashes that stand in for the manage key in the store. Webhook secrets are
 * src/webhooks/signing.ts's.
 */

export type RandomBytes = (length: number) => Uint8Array;
export type Digest = (bytes: Uint8Array) => Promise<Uint8Array>;

/** 128 random bits, base64url (22 characters): a watch's id, as result tokens are. */
export const newWatchId = (random: RandomBytes) => base64url(random(16));

/** 256 random bits, base64url (43 characters): shown once, stored only as its hash. */
export const newManageKey = (random: RandomBytes) => base64url(random(32));

/** An event's id, the `webhook-id` of its every attempt: `evt_` and 128 random bits. */
export const newEventId = (random: RandomBytes) => `evt_${base64url(random(16))}`;

/** SHA-256 of a text's UTF-8 bytes, base64url. */
export async function hashOf(text: string, digest: Digest): Promise<string> {
  return base64url(await digest(utf8.encode(text)));
}

/**
 * Whether two hashes are equal, in a time that does not depend on where they differ: the manage
 * key's hash is compared this way, so timing tells a guesser nothing.
 */
export function sameHash(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
