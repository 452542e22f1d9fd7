import { LRUCache } from 'lru-cache';
import type { Store } from './store.js';

export interface MemoryStoreOptions {
  /** Bound on stored text, in UTF-16 code units (about bytes for JSON): the oldest entries go first. */
  maxValueChars: number;
  /** Bound on the number of counters. */
  maxCounters: number;
}

export const defaultMemoryStoreOptions: MemoryStoreOptions = {
  maxValueChars: 256 * 1024 * 1024,
  maxCounters: 1_000_000,
};

/** The embedded store: one process, bounded, least recently used entries evicted first. */
export function createMemoryStore(options: MemoryStoreOptions = defaultMemoryStoreOptions): Store {
  const values = new LRUCache<string, string>({
    maxSize: options.maxValueChars,
    sizeCalculation: (value, key) => value.length + key.length,
  });
  // Bounded by maxSize at one unit per counter rather than by `max`, which would allocate its
  // full capacity up front (about 16 MB and 100 ms for a million counters) before the first use.
  const counters = new LRUCache<string, number>({
    maxSize: options.maxCounters,
    sizeCalculation: () => 1,
  });

  return {
    get: async (key) => values.get(key),
    async set(key, value, ttlMs) {
      values.set(key, value, { ttl: ttlMs });
    },
    async increment(key, by, ttlMs) {
      // One event-loop turn does the read and the write, so the counter is atomic in-process.
      const current = counters.get(key);
      const next = (current ?? 0) + by;
      if (current === undefined) counters.set(key, next, { ttl: ttlMs });
      else counters.set(key, next, { noUpdateTTL: true });
      return next;
    },
  };
}
