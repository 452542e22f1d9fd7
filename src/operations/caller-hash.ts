import { hex, utf8 } from '../lib/index.js';
/**
 * The caller's address as the request log writes it: never raw (an address is personal data),
 * but the same caller gives the same text within a process, so an operator can follow one
 * caller's requests and count callers. SHA-256 over a random 32-byte key drawn when the process
 * starts followed by the address, first 16 hex digits (64 bits): without the key, which never
 * leaves memory, no list of addresses can be hashed to find whose line it is. Another process (a
 * restart, another of WORKERS) draws another key (docs/operations.md).
 */

export type CallerHash = (address: string) => Promise<string>;

/** Hashes kept per process: a caller's repeated requests skip the digest. */
const keptHashes = 4096;

export function createCallerHash(
  randomBytes: (length: number) => Uint8Array,
  digest: (bytes: Uint8Array) => Promise<Uint8Array>,
): CallerHash {
  const key = randomBytes(32);
  const kept = new Map<string, Promise<string>>();

  async function hash(address: string): Promise<string> {
    const text = utf8.encode(address);
    const input = new Uint8Array(key.length + text.length);
    input.set(key);
    input.set(text, key.length);
    return hex((await digest(input)).subarray(0, 8));
  }

  return (address) => {
    let hashed = kept.get(address);
    if (hashed === undefined) {
      // Bounded by emptying: callers that keep coming are hashed again once, the rest forgotten.
      if (kept.size >= keptHashes) kept.clear();
      hashed = hash(address);
      kept.set(address, hashed);
    }
    return hashed;
  };
}
