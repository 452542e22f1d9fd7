import { LRUCache } from 'lru-cache';
import { type DueClaim, type Store, StoreUnavailableError } from './store.js';

export interface MemoryStoreOptions {
  /** Bound on stored text, in UTF-16 code units (about bytes for JSON): the oldest entries go first. */
  maxValueChars: number;
  /** Bound on the number of live counters: past it, new counters are refused, none is dropped. */
  maxCounters: number;
  /** Bound on the members of all sets together, in characters: the oldest sets go first. */
  maxSetChars: number;
}

export const defaultMemoryStoreOptions: MemoryStoreOptions = {
  maxValueChars: 256 * 1024 * 1024,
  maxCounters: 1_000_000,
  maxSetChars: 16 * 1024 * 1024,
};

interface Counter {
  value: number;
  expiresAt: number;
}

/** A full counter table is swept for expired counters at most this often. */
const counterSweepMs = 1000;

/**
 * The store of one process (`STORE_URL=memory:`), for tests and throwaway runs: bounded, and lost
 * with the process. Values and sets go least recently used first when over their bounds; counters
 * are never evicted early (a caller's quota must not reset because others made traffic): when the
 * table is full of live counters a new one is refused with StoreUnavailableError, so the quota
 * fails closed.
 */
export function createMemoryStore(
  options: Partial<MemoryStoreOptions> = {},
  now: () => number = Date.now,
): Store {
  const { maxValueChars, maxCounters, maxSetChars } = { ...defaultMemoryStoreOptions, ...options };
  const values = new LRUCache<string, string>({
    maxSize: maxValueChars,
    sizeCalculation: (value, key) => value.length + key.length,
  });
  const sets = new LRUCache<string, Map<string, number>>({
    maxSize: maxSetChars,
    sizeCalculation: (members, key) => {
      let size = key.length;
      for (const member of members.keys()) size += member.length + 8;
      return Math.max(1, size);
    },
  });
  const counters = new Map<string, Counter>();
  /** Due queues: never evicted (ids leave only when removed), bounded by the watch caps. */
  const queues = new Map<string, Map<string, number>>();
  let lastCounterSweep = Number.NEGATIVE_INFINITY;

  /** The live counter under `key`, forgetting it when expired. */
  function liveCounter(key: string, at: number): Counter | undefined {
    const counter = counters.get(key);
    if (counter && counter.expiresAt <= at) {
      counters.delete(key);
      return undefined;
    }
    return counter;
  }

  function createCounter(key: string, ttlMs: number, at: number): Counter {
    if (counters.size >= maxCounters && at - lastCounterSweep >= counterSweepMs) {
      lastCounterSweep = at;
      for (const [name, counter] of counters) if (counter.expiresAt <= at) counters.delete(name);
    }
    if (counters.size >= maxCounters) {
      throw new StoreUnavailableError(`the memory store holds ${maxCounters} live counters`);
    }
    const counter = { value: 0, expiresAt: at + ttlMs };
    counters.set(key, counter);
    return counter;
  }

  function liveMembers(key: string, at: number): Map<string, number> | undefined {
    const members = sets.get(key);
    if (!members) return undefined;
    for (const [member, expiresAt] of members) if (expiresAt <= at) members.delete(member);
    return members;
  }

  /** Stores a set's members, the set living as long as its longest-lived member. */
  function keepSet(key: string, members: Map<string, number>, at: number): void {
    if (members.size === 0) return;
    const longest = Math.max(...members.values());
    sets.set(key, members, { ttl: Math.max(1, longest - at) });
  }

  // One event-loop turn does each read-modify-write, so every operation is atomic in-process.
  return {
    get: async (key) => values.get(key),
    async set(key, value, ttlMs) {
      values.set(key, value, { ttl: ttlMs });
    },
    async delete(key) {
      values.delete(key);
    },
    count: async (key) => liveCounter(key, now())?.value ?? 0,
    async increment(key, by, ttlMs) {
      const at = now();
      const counter = liveCounter(key, at) ?? createCounter(key, ttlMs, at);
      counter.value += by;
      return counter.value;
    },
    async incrementWithin(key, limit, ttlMs) {
      const at = now();
      const counter = liveCounter(key, at);
      if ((counter?.value ?? 0) >= limit) return undefined;
      const live = counter ?? createCounter(key, ttlMs, at);
      live.value += 1;
      return live.value;
    },
    async addMembers(key, members, ttlMs) {
      const at = now();
      const merged = new Map(liveMembers(key, at));
      const expiresAt = at + ttlMs;
      for (const member of members) {
        merged.set(member, Math.max(merged.get(member) ?? 0, expiresAt));
      }
      keepSet(key, merged, at);
    },
    members: async (key) => [...(liveMembers(key, now())?.keys() ?? [])],
    async addMemberWithin(key, member, limit, ttlMs) {
      const at = now();
      const live = liveMembers(key, at);
      if (!live?.has(member) && (live?.size ?? 0) >= limit) return false;
      const merged = new Map(live);
      merged.set(member, Math.max(merged.get(member) ?? 0, at + ttlMs));
      keepSet(key, merged, at);
      return true;
    },
    async removeMembers(key, members) {
      const live = sets.get(key);
      for (const member of members) live?.delete(member);
    },
    async putDue(queue, id, dueAt) {
      let entries = queues.get(queue);
      if (!entries) queues.set(queue, (entries = new Map()));
      entries.set(id, dueAt);
    },
    async removeDue(queue, id) {
      queues.get(queue)?.delete(id);
    },
    countDue: async (queue) => queues.get(queue)?.size ?? 0,
    async earliestDue(queue) {
      let earliest: number | undefined;
      for (const dueAt of queues.get(queue)?.values() ?? []) {
        if (earliest === undefined || dueAt < earliest) earliest = dueAt;
      }
      return earliest;
    },
    async claimDue(queue, at, limit, leaseMs) {
      const due: DueClaim[] = [];
      for (const [id, dueAt] of queues.get(queue) ?? []) if (dueAt <= at) due.push({ id, dueAt });
      const claimed = due.sort((a, b) => a.dueAt - b.dueAt).slice(0, Math.max(0, limit));
      for (const { id } of claimed) queues.get(queue)!.set(id, at + leaseMs);
      return claimed;
    },
    async close() {
      values.clear();
      sets.clear();
      counters.clear();
      queues.clear();
    },
  };
}
