/**
 * Where results, result-cache entries, quota counters and pool discoveries live: the one contract
 * the memory, SQLite and Redis backends keep alike (docs/storage.md). Values are JSON text, so
 * what is read back is always a fresh copy and a stored result can never be changed in place.
 * Every time to live is relative, in ms; nothing is kept past it.
 */
export interface Store {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;

  /** A counter's value, 0 when it does not exist: reading never creates a counter. */
  count(key: string): Promise<number>;
  /**
   * Adds `by` to a counter (created at 0) and returns the new value; the expiry is set when the
   * counter is created and later increments never move it.
   */
  increment(key: string, by: number, ttlMs: number): Promise<number>;
  /**
   * Adds one to a counter unless it has already reached `limit`, in one atomic step on every
   * backend (also across processes sharing it): the new value, or undefined when refused.
   */
  incrementWithin(key: string, limit: number, ttlMs: number): Promise<number | undefined>;

  /**
   * Adds members to a set, each living `ttlMs` from now; a member added again lives until the
   * later of its two expiries.
   */
  addMembers(key: string, members: readonly string[], ttlMs: number): Promise<void>;
  /** The members still alive, in no particular order; empty for a set never written. */
  members(key: string): Promise<string[]>;

  /** Lets go of connections and timers (graceful shutdown); the store is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * The store cannot be reached or written right now (Redis down, a disk full, a lock held too
 * long). Routes that need it answer 503 `store_unavailable`: never a 404 or a fresh quota.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The store named by STORE_URL cannot be opened at start (a SQLite path that cannot be created
 * or written, a Redis that does not answer): the process stops with this one-line message.
 */
export class StoreOpenError extends Error {
  constructor(message: string) {
    super(`STORE_URL: ${message}`);
    this.name = 'StoreOpenError';
  }
}
