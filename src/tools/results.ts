import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';

/**
 * Results kept under tokens, and the short-lived result cache that maps a normalised request to
 * the token of its latest result. A token is 128 random bits in base64url (22 characters): it
 * cannot be guessed or enumerated, and the result behind it never changes.
 */

export const tokenPattern = /^[A-Za-z0-9_-]{22}$/;

export function newToken(): string {
  return randomBytes(16).toString('base64url');
}

export interface StoredResult {
  token: string;
  /** The check's result fields, as answered by the POST that made it. */
  result: Record<string, unknown>;
}

export interface ResultStore {
  save(tool: string, result: object): Promise<string>;
  load(tool: string, token: string): Promise<StoredResult | undefined>;
  /** The token of a result for the same request made within the result TTL. */
  cached(tool: string, requestKey: string): Promise<string | undefined>;
  remember(tool: string, requestKey: string, token: string): Promise<void>;
}

export function createResultStore(
  store: Store,
  ttl: { tokenMs: number; resultMs: number },
): ResultStore {
  return {
    async save(tool, result) {
      const token = newToken();
      await store.set(`token:${tool}:${token}`, JSON.stringify(result), ttl.tokenMs);
      return token;
    },
    async load(tool, token) {
      if (!tokenPattern.test(token)) return undefined;
      const text = await store.get(`token:${tool}:${token}`);
      return text === undefined
        ? undefined
        : { token, result: JSON.parse(text) as Record<string, unknown> };
    },
    cached: (tool, requestKey) => store.get(`result:${tool}:${requestKey}`),
    async remember(tool, requestKey, token) {
      if (ttl.resultMs > 0) await store.set(`result:${tool}:${requestKey}`, token, ttl.resultMs);
    },
  };
}
