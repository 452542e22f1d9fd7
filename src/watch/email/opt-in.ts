import { base64url } from '../../lib/index.js';
import { maskEmail } from './address.js';
import type { EmailDelivery, EmailView, WatchEmail } from './schemas.js';

/**
 * Double opt-in and one-click unsubscribe (docs/watches.md, "E-mail"): the codes and how a
 * link's code is judged (the daily allowances of confirmation messages: allowance.ts). Pure over
 * the platform's random bytes and hashing; the watches' face reads and writes the configuration.
 */

/** A confirmation link works for 24 hours. */
export const confirmationTtlMs = 86_400_000;

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

/**
 * The view's e-mail: masked unless the manage key's holder asks, who sees the last attempt at an
 * e-mail too (`last`, when one was made).
 */
export function emailView(
  email: WatchEmail | null | undefined,
  whole: boolean,
  last?: EmailDelivery,
): EmailView {
  if (!email) return null;
  return {
    address: whole ? email.address : maskEmail(email.address),
    confirmed: email.confirmed,
    ...(whole && last ? { last_delivery: last } : {}),
  };
}
