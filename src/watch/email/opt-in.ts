import { base64url } from '../../lib/index.js';
import type { Store } from '../../store/index.js';
import { maskEmail } from './address.js';
import type { EmailView, WatchEmail } from './schemas.js';

/**
 * Double opt-in and one-click unsubscribe (docs/watches.md, "E-mail"): the codes, how a link's
 * code is judged, and the daily limits on confirmation messages. Pure over the store and the
 * platform's random bytes and hashing; the watches' face reads and writes the configuration.
 */

/** A confirmation link works for 24 hours. */
export const confirmationTtlMs = 86_400_000;
/** Confirmation messages per address, and per caller, per UTC day. */
export const confirmationsPerDay = 3;

type RandomBytes = (length: number) => Uint8Array;

/**
 * The watches' own hashing (src/watch/model/secrets.ts), passed in: SHA-256 in base64url, and hashes
 * compared in a time that does not depend on where they differ.
 */
export interface Hashing {
  hashOf(text: string): Promise<string>;
  sameHash(a: string, b: string): boolean;
}

/**
 * A new address: unconfirmed, with a confirmation code (128 random bits, kept only as its hash)
 * that expires in 24 hours, and its unsubscribe code. The code goes in the confirmation message.
 */
export async function newEmail(
  address: string,
  random: RandomBytes,
  hashing: Hashing,
  now: number,
  unsubscribe = base64url(random(16)),
): Promise<{ email: WatchEmail; code: string }> {
  const code = base64url(random(16));
  return {
    code,
    email: {
      address,
      confirmed: false,
      code_hash: await hashing.hashOf(code),
      code_expires_at: new Date(now + confirmationTtlMs).toISOString(),
      unsubscribe,
    },
  };
}

/** What a confirmation link's code finds: confirmable, already confirmed, expired, or not this one. */
export type CodeCheck = 'ok' | 'confirmed' | 'expired' | 'wrong';

export async function checkConfirmCode(
  email: WatchEmail | null | undefined,
  code: string,
  hashing: Hashing,
  now: number,
): Promise<CodeCheck> {
  if (!email) return 'wrong';
  if (email.confirmed) return 'confirmed';
  if (
    email.code_hash === undefined ||
    !hashing.sameHash(await hashing.hashOf(code), email.code_hash)
  ) {
    return 'wrong';
  }
  return Date.parse(email.code_expires_at ?? '') > now ? 'ok' : 'expired';
}

/** Whether `code` is the address's unsubscribe code (as hashes, in constant time). */
export async function isUnsubscribeCode(
  email: WatchEmail,
  code: string,
  hashing: Hashing,
): Promise<boolean> {
  const [given, kept] = await Promise.all([
    hashing.hashOf(code),
    hashing.hashOf(email.unsubscribe),
  ]);
  return hashing.sameHash(given, kept);
}

/** The view's e-mail: masked unless the manage key's holder asks. */
export function emailView(email: WatchEmail | null | undefined, whole: boolean): EmailView {
  if (!email) return null;
  return { address: whole ? email.address : maskEmail(email.address), confirmed: email.confirmed };
}

const dayMs = 86_400_000;

/**
 * Takes one confirmation message from the caller's (none for the operator) and the address's
 * counts of the UTC day (each at most `confirmationsPerDay`, atomic on every backend): undefined
 * when taken, else the seconds to the next UTC midnight (Retry-After). The address is counted under its hash, so the
 * store keeps no list of addresses beside the watches.
 */
export async function takeConfirmationSend(
  store: Store,
  subjects: { caller?: string; address: string },
  hashing: Hashing,
  now: number,
): Promise<number | undefined> {
  const day = Math.floor(now / dayMs);
  const ttlMs = (day + 1) * dayMs - now + 60_000;
  const callerKey =
    subjects.caller === undefined
      ? undefined
      : `email-confirmations:caller:${day}:${subjects.caller}`;
  const addressKey = `email-confirmations:address:${day}:${await hashing.hashOf(subjects.address.toLowerCase())}`;
  const retryAfterS = Math.ceil(((day + 1) * dayMs - now) / 1000);
  if (
    callerKey !== undefined &&
    (await store.incrementWithin(callerKey, confirmationsPerDay, ttlMs)) === undefined
  ) {
    return retryAfterS;
  }
  if ((await store.incrementWithin(addressKey, confirmationsPerDay, ttlMs)) === undefined) {
    // The caller's unit goes back: nothing was sent.
    if (callerKey !== undefined) await store.increment(callerKey, -1, ttlMs);
    return retryAfterS;
  }
  return undefined;
}
