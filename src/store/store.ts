/**
 * Where results, result-cache entries and quota counters live. Values are JSON text, so what is
 * read back is always a fresh copy and a stored result can never be changed in place.
 */
export interface Store {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Adds `by` to a counter (created at 0) and returns the new value; the expiry is set on creation. */
  increment(key: string, by: number, ttlMs: number): Promise<number>;
}
