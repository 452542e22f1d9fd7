import type { Store } from '../store/index.js';
import type { Metrics, StoreOperation } from './metrics.js';

/**
 * A Store that times every operation and counts the ones that fail (rejected: Redis down, SQLite
 * busy, a Durable Object unreachable) by backend and operation, then answers exactly as the store
 * it wraps (docs/operations.md, store metrics). Written out operation by operation: an operation
 * added to the contract does not compile here until it is observed too.
 */
export function observeStore(store: Store, backend: string, metrics: Metrics): Store {
  function timed<A extends unknown[], R>(
    operation: StoreOperation,
    call: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return async (...args) => {
      const started = performance.now();
      let failed = true;
      try {
        const value = await call(...args);
        failed = false;
        return value;
      } finally {
        metrics.storeOperation(backend, operation, (performance.now() - started) / 1000, failed);
      }
    };
  }
  return {
    get: timed('get', (key) => store.get(key)),
    set: timed('set', (key, value, ttlMs) => store.set(key, value, ttlMs)),
    delete: timed('delete', (key) => store.delete(key)),
    count: timed('count', (key) => store.count(key)),
    increment: timed('increment', (key, by, ttlMs) => store.increment(key, by, ttlMs)),
    incrementWithin: timed('incrementWithin', (key, limit, ttlMs) =>
      store.incrementWithin(key, limit, ttlMs),
    ),
    addMembers: timed('addMembers', (key, members, ttlMs) => store.addMembers(key, members, ttlMs)),
    members: timed('members', (key) => store.members(key)),
    addMemberWithin: timed('addMemberWithin', (key, member, limit, ttlMs) =>
      store.addMemberWithin(key, member, limit, ttlMs),
    ),
    removeMembers: timed('removeMembers', (key, members) => store.removeMembers(key, members)),
    putDue: timed('putDue', (queue, id, dueAt) => store.putDue(queue, id, dueAt)),
    removeDue: timed('removeDue', (queue, id) => store.removeDue(queue, id)),
    countDue: timed('countDue', (queue) => store.countDue(queue)),
    earliestDue: timed('earliestDue', (queue) => store.earliestDue(queue)),
    claimDue: timed('claimDue', (queue, now, limit, leaseMs) =>
      store.claimDue(queue, now, limit, leaseMs),
    ),
    close: () => store.close(),
  };
}
