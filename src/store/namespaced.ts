import type { Store } from './store.js';

/**
 * A store whose every key and due queue carries a deployment's namespace (STORE_NAMESPACE), so
 * two deployments on one SQLite file or one Redis (production and staging) share nothing: not a
 * token, a quota, a cached result, a pool discovery nor a watch. One wrapper for every backend,
 * so no backend can forget a key.
 */
export function withNamespace(store: Store, namespace: string): Store {
  const at = (key: string) => `${namespace}:${key}`;
  return {
    get: (key) => store.get(at(key)),
    set: (key, value, ttlMs) => store.set(at(key), value, ttlMs),
    delete: (key) => store.delete(at(key)),
    count: (key) => store.count(at(key)),
    increment: (key, by, ttlMs) => store.increment(at(key), by, ttlMs),
    incrementWithin: (key, limit, ttlMs) => store.incrementWithin(at(key), limit, ttlMs),
    addMembers: (key, members, ttlMs) => store.addMembers(at(key), members, ttlMs),
    members: (key) => store.members(at(key)),
    addMemberWithin: (key, member, limit, ttlMs) =>
      store.addMemberWithin(at(key), member, limit, ttlMs),
    removeMembers: (key, members) => store.removeMembers(at(key), members),
    putDue: (queue, id, dueAt) => store.putDue(at(queue), id, dueAt),
    removeDue: (queue, id) => store.removeDue(at(queue), id),
    countDue: (queue) => store.countDue(at(queue)),
    earliestDue: (queue) => store.earliestDue(at(queue)),
    claimDue: (queue, now, limit, leaseMs) => store.claimDue(at(queue), now, limit, leaseMs),
    close: () => store.close(),
  };
}
