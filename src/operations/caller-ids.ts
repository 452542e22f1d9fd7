import type { Store } from '../store/index.js';
import { base64url } from '../lib/index.js';

/**
 * The caller ids the service stores (docs/watches.md, "What is kept"): HMAC-SHA-256 (RFC 2104,
 * through Web Crypto on both runtimes) of a caller's quota subject or network, keyed by a random
 * 256-bit key that lives in the store, never an unkeyed hash that anyone could reverse by hashing
 * every address. The key of a period is created by the first process that needs it, in one atomic
 * step of the store (a set that takes one member), so every process and isolate sharing the store
 * hashes alike. Each period's key is kept for two periods and then forgotten by the store: from
 * then on no one, the operator included, can tell whose id an old one was. An id made under the
 * previous period's key still counts (`idsOf` answers both), so a rotation frees no one's places.
 */

export interface CallerIds {
  /**
   * A subject's ids: the one under the current key first (what is stored from now on), then the
   * one under the previous period's key while that key is kept.
   */
  idsOf(subject: string): Promise<string[]>;
  /** A subject's id under the current key alone: what lives no longer than a day (quotas). */
  idOf(subject: string): Promise<string>;
  /**
   * The same id for a read that must write nothing (a status read): none while the store holds no
   * key yet, since then nothing can have been counted under it.
   */
  existingIdOf(subject: string): Promise<string | undefined>;
}

export interface CallerIdOptions {
  store: Store;
  clock: () => Date;
  randomBytes: (length: number) => Uint8Array;
  /** How long one key makes new ids; it is kept for twice this. */
  periodMs: number;
}

const keyName = (period: number) => `caller-key:${period}`;

/** Callers whose ids a process keeps at hand, per key: a busy service's distinct callers of a while. */
const rememberedIds = 4096;

/** Web Crypto's key object, named as the runtimes' own types do not both name it. */
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

export function createCallerIds(options: CallerIdOptions): CallerIds {
  const { store, periodMs } = options;
  const utf8 = new TextEncoder();
  /** Keys by period: each is read or created once per process. */
  const keys = new Map<number, HmacKey | undefined>();

  const importKey = (secret: string) =>
    crypto.subtle.importKey('raw', utf8.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);

  /** The key of `period`: created when `create` and none is kept yet, else read (or none). */
  async function keyOf(period: number, create: boolean): Promise<HmacKey | undefined> {
    const name = keyName(period);
    if (create) {
      // Kept to the end of the period after it: ids made in it count until the watches end.
      const keptMs = Math.max(1, (period + 2) * periodMs - options.clock().getTime());
      const candidate = base64url(options.randomBytes(32));
      // A set holding at most one member: whichever process adds first, every one reads its key.
      await store.addMemberWithin(name, candidate, 1, keptMs);
    }
    const [secret] = await store.members(name);
    return secret === undefined ? undefined : importKey(secret);
  }

  /**
   * A period's key, read or created once and then kept: only keys are kept, never a pending
   * read, since on Workers a promise begun for one request (or Durable Object) cannot be awaited
   * by another. Two first calls at once both ask the store, which hands both the one key.
   */
  async function cachedKey(period: number, create: boolean): Promise<HmacKey | undefined> {
    if (keys.has(period)) return keys.get(period);
    const key = await keyOf(period, create);
    // A previous period's key the store does not have is never created later, so its absence is
    // kept too; the current period's absence is not (another process may create it at any time).
    if (key !== undefined || period < currentPeriod()) keys.set(period, key);
    for (const known of keys.keys()) if (known < period - 1) keys.delete(known);
    return key;
  }

  /**
   * The ids already made under each key, by subject: a caller's requests hash the same subject
   * again and again, and Web Crypto's HMAC (a job and a promise of its own) cost about a tenth of
   * an uncached check's CPU (docs/benchmarks.md, "Answers that trickle"). Whoever can read the
   * process's memory reads the key there too, so the pairs tell them nothing more; they go with
   * their key, and the oldest go past `rememberedIds`.
   */
  const made = new WeakMap<HmacKey, Map<string, string>>();

  async function sign(key: HmacKey, subject: string): Promise<string> {
    let ids = made.get(key);
    const known = ids?.get(subject);
    if (known !== undefined) return known;
    const mac = await crypto.subtle.sign('HMAC', key, utf8.encode(subject));
    const id = base64url(new Uint8Array(mac));
    if (!ids) made.set(key, (ids = new Map()));
    if (ids.size >= rememberedIds) ids.delete(ids.keys().next().value!);
    ids.set(subject, id);
    return id;
  }

  const currentPeriod = () => Math.floor(options.clock().getTime() / periodMs);

  return {
    async idOf(subject) {
      return sign((await cachedKey(currentPeriod(), true))!, subject);
    },
    async existingIdOf(subject) {
      const key = await cachedKey(currentPeriod(), false);
      return key === undefined ? undefined : sign(key, subject);
    },
    async idsOf(subject) {
      const period = currentPeriod();
      const [current, previous] = await Promise.all([
        cachedKey(period, true),
        cachedKey(period - 1, false),
      ]);
      const ids = [await sign(current!, subject)];
      if (previous) ids.push(await sign(previous, subject));
      return ids;
    },
  };
}
