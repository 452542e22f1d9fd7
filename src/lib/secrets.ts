import { base64url, utf8 } from './encodings.js';

/**
 * Keys shown once and kept only as their hashes (a watch's manage key, a reports inbox's key):
 * the platform's random bytes and SHA-256 (Web Crypto on both runtimes), the hash of a key, and
 * the comparison of two hashes in constant time.
 */

export type RandomBytes = (length: number) => Uint8Array;
export type Digest = (bytes: Uint8Array) => Promise<Uint8Array>;

/** SHA-256 of a text's UTF-8 bytes, base64url. */
export async function hashOf(text: string, digest: Digest): Promise<string> {
  return base64url(await digest(utf8.encode(text)));
}

/**
 * Whether two hashes are equal, in a time that does not depend on where they differ: a key's hash
 * is compared this way, so timing tells a guesser nothing.
 */
export function sameHash(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
