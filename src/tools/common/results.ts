import { ApiError } from '../../http/index.js';
import { base64url, utf8 } from '../../lib/index.js';
import type { Store } from '../../store/index.js';

/**
 * Results kept under tokens, and the short-lived result cache that maps a normalised request to
 * the token of its latest result. A token is 128 random bits in base64url (22 characters): it
 * cannot be guessed or enumerated, and the result behind it never changes.
 */

export const tokenPattern = /^[A-Za-z0-9_-]{22}$/;

/** A new token from the platform's random bytes (Web Crypto's `getRandomValues`). */
export function newToken(randomBytes: (length: number) => Uint8Array): string {
  return base64url(randomBytes(16));
}

/**
 * The most a stored result may weigh, as UTF-8 JSON, so that no caller can fill the store with a
 * few checks; real results are far below it (sizes in docs/storage.md).
 */
export const maxResultBytes = 256 * 1024;

function fitsBound(json: string): boolean {
  // One UTF-16 unit is 1 to 3 UTF-8 bytes: most results are decided without encoding them.
  if (json.length > maxResultBytes) return false;
  if (json.length * 3 <= maxResultBytes) return true;
  return utf8.encode(json).length <= maxResultBytes;
}

export interface StoredResult {
  token: string;
  /** The check's result fields, as answered by the POST that made it. */
  result: Record<string, unknown>;
}

export interface ResultStore {
  /**
   * Stores a result (as its JSON text) under a new token; a result over maxResultBytes is refused
   * with 400 `invalid_target`, and nothing is stored.
   */
  save(tool: string, resultJson: string): Promise<string>;
  load(tool: string, token: string): Promise<StoredResult | undefined>;
  /** The stored JSON text, for answers that pass it on without parsing it. */
  loadJson(tool: string, token: string): Promise<string | undefined>;
  /** The token and JSON text of a result for the same request made within the result TTL. */
  cached(tool: string, requestKey: string): Promise<CachedResult | undefined>;
  remember(tool: string, requestKey: string, token: string, resultJson: string): Promise<void>;
}

export interface CachedResult {
  token: string;
  json: string;
}

/**
 * A result-cache entry carries the result beside its token, `{"token":"…","result":{…}}`: a
 * cached POST is then one store read instead of two (one round trip fewer with Redis), for a copy
 * of the result kept RESULT_TTL_S. Token and result are cut out at fixed offsets, unparsed.
 */
const entryHead = '{"token":"';
const entryMiddle = '","result":';
const resultStart = entryHead.length + 22 + entryMiddle.length;

function cacheEntry(token: string, resultJson: string): string {
  return `${entryHead}${token}${entryMiddle}${resultJson}}`;
}

function readCacheEntry(entry: string): CachedResult | undefined {
  if (
    !entry.startsWith(entryHead) ||
    entry.slice(resultStart - entryMiddle.length, resultStart) !== entryMiddle
  ) {
    return undefined;
  }
  return {
    token: entry.slice(entryHead.length, entryHead.length + 22),
    json: entry.slice(resultStart, -1),
  };
}

export function createResultStore(
  store: Store,
  ttl: { tokenMs: number; resultMs: number },
  randomBytes: (length: number) => Uint8Array,
): ResultStore {
  return {
    async save(tool, resultJson) {
      if (!fitsBound(resultJson)) {
        throw new ApiError(
          'invalid_target',
          `the result of this check is larger than the ${maxResultBytes / 1024} KiB the service stores`,
        );
      }
      const token = newToken(randomBytes);
      await store.set(`token:${tool}:${token}`, resultJson, ttl.tokenMs);
      return token;
    },
    loadJson: async (tool, token) =>
      tokenPattern.test(token) ? store.get(`token:${tool}:${token}`) : undefined,
    async load(tool, token) {
      const text = await this.loadJson(tool, token);
      return text === undefined
        ? undefined
        : { token, result: JSON.parse(text) as Record<string, unknown> };
    },
    async cached(tool, requestKey) {
      const entry = await store.get(`result:${tool}:${requestKey}`);
      return entry === undefined ? undefined : readCacheEntry(entry);
    },
    async remember(tool, requestKey, token, resultJson) {
      if (ttl.resultMs <= 0) return;
      await store.set(`result:${tool}:${requestKey}`, cacheEntry(token, resultJson), ttl.resultMs);
    },
  };
}

/**
 * `{...before, ...object, ...after}` as JSON text, where `objectJson` is an object's JSON text that
 * is passed through unparsed: a stored result goes out again without a parse and a stringify.
 */
export function spliceJson(
  before: Record<string, unknown>,
  objectJson: string,
  after: Record<string, unknown>,
): string {
  const parts = [
    JSON.stringify(before).slice(1, -1),
    objectJson.slice(1, -1),
    JSON.stringify(after).slice(1, -1),
  ];
  return `{${parts.filter((part) => part !== '').join(',')}}`;
}
