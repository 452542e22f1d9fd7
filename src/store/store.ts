/**
 * Where results, result-cache entries, quota counters, pool discoveries and watches live: the one
 * contract the memory, SQLite, Redis and Durable Object backends keep alike (docs/storage.md).
 * Values are JSON text, so what is read back is always a fresh copy and a stored result can never
 * be changed in place. Every time to live is relative, in ms; nothing is kept past it. Due queues
 * (docs/watches.md) are the one thing without an expiry: an id stays until it is removed.
 */
export interface Store {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Forgets a value at once (a deleted watch); nothing happens for a key never set. */
  delete(key: string): Promise<void>;

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
  /**
   * Adds one member unless the set already holds `limit` live members, in one atomic step on
   * every backend (also across processes): true when it was added, or was already a live member
   * (whose expiry then moves as `addMembers` moves it); false when refused. The caps on watches.
   */
  addMemberWithin(key: string, member: string, limit: number, ttlMs: number): Promise<boolean>;
  /** Takes members out of a set; members it does not hold are ignored. */
  removeMembers(key: string, members: readonly string[]): Promise<void>;

  /**
   * Puts an id in a due queue at `dueAt` (epoch ms), or moves it there when it is already in.
   * Ids stay until removed: a queue has no expiry.
   */
  putDue(queue: string, id: string, dueAt: number): Promise<void>;
  removeDue(queue: string, id: string): Promise<void>;
  /** How many ids the queue holds, due or not. */
  countDue(queue: string): Promise<number>;
  /**
   * The earliest due time in the queue (a claimed id's is its lease's end), or undefined when it
   * is empty: when whatever drives the claims must wake next (a Durable Object's alarm).
   */
  earliestDue(queue: string): Promise<number | undefined>;
  /**
   * Takes up to `limit` ids whose due time is at or before `now`, earliest first, and moves each
   * one's due time to `now + leaseMs`, in one atomic step on every backend (also across
   * processes): two claimers never get the same id for the same due time, and an id whose
   * claimer died before moving or removing it is due again when the lease has passed.
   */
  claimDue(queue: string, now: number, limit: number, leaseMs: number): Promise<DueClaim[]>;

  /** Lets go of connections and timers (graceful shutdown); the store is unusable afterwards. */
  close(): Promise<void>;
}

/** An id taken from a due queue, with the due time it was taken for. */
export interface DueClaim {
  id: string;
  dueAt: number;
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
  /** `variable`: the setting that names the store (REPORTS_URL for the reports' store). */
  constructor(message: string, variable = 'STORE_URL') {
    super(`${variable}: ${message}`);
    this.name = 'StoreOpenError';
  }
}
