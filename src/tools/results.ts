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
  /** Stores a result (as its JSON text) under a new token. */
  save(tool: string, resultJson: string): Promise<string>;
  load(tool: string, token: string): Promise<StoredResult | undefined>;
  /** The stored JSON text, for answers that pass it on without parsing it. */
  loadJson(tool: string, token: string): Promise<string | undefined>;
  /** The token of a result for the same request made within the result TTL. */
  cached(tool: string, requestKey: string): Promise<string | undefined>;
  remember(tool: string, requestKey: string, token: string): Promise<void>;
}

export function createResultStore(
  store: Store,
  ttl: { tokenMs: number; resultMs: number },
): ResultStore {
  return {
    async save(tool, resultJson) {
      const token = newToken();
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
    cached: (tool, requestKey) => store.get(`result:${tool}:${requestKey}`),
    async remember(tool, requestKey, token) {
      if (ttl.resultMs > 0) await store.set(`result:${tool}:${requestKey}`, token, ttl.resultMs);
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
