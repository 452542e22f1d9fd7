import { type Store, StoreUnavailableError } from '../store/index.js';
import type { StoreObject } from './store-object.js';

/**
 * The Store contract on Workers (docs/edge.md): every key is its own Durable Object
 * (store-object.ts), named by the key, so one key's operations are serialised in one place and
 * different keys never wait for each other. A call that fails (the object cannot be reached,
 * is overloaded, or was reset) is a StoreUnavailableError: a 503, never a 404 or a fresh quota.
 */

export interface DurableStoreOptions {
  /** Put before every key: tests give each store its own, so they share nothing. */
  prefix?: string;
}

export function createDurableStore(
  namespace: DurableObjectNamespace<StoreObject>,
  options: DurableStoreOptions = {},
): Store {
  const prefix = options.prefix ?? '';
  const objectOf = (key: string) => namespace.get(namespace.idFromName(prefix + key));

  async function call<T>(
    key: string,
    operation: (object: DurableObjectStub<StoreObject>) => Promise<T>,
  ): Promise<T> {
    try {
      return await operation(objectOf(key));
    } catch (error) {
      throw new StoreUnavailableError(`the store did not answer for ${key}`, { cause: error });
    }
  }

  return {
    get: (key) => call(key, (object) => object.get()),
    set: (key, value, ttlMs) => call(key, (object) => object.set(value, ttlMs)),
    count: (key) => call(key, (object) => object.count()),
    increment: (key, by, ttlMs) => call(key, (object) => object.increment(by, ttlMs)),
    incrementWithin: (key, limit, ttlMs) =>
      call(key, (object) => object.incrementWithin(limit, ttlMs)),
    async addMembers(key, members, ttlMs) {
      if (members.length === 0) return;
      await call(key, (object) => object.addMembers([...members], ttlMs));
    },
    members: (key) => call(key, (object) => object.members()),
    delete: (key) => call(key, (object) => object.delete()),
    addMemberWithin: (key, member, limit, ttlMs) =>
      call(key, (object) => object.addMemberWithin(member, limit, ttlMs)),
    async removeMembers(key, members) {
      if (members.length === 0) return;
      await call(key, (object) => object.removeMembers([...members]));
    },
    // A queue is one key, so one object: its claims are serialised in one place.
    putDue: (queue, id, dueAt) => call(queue, (object) => object.putDue(id, dueAt)),
    removeDue: (queue, id) => call(queue, (object) => object.removeDue(id)),
    countDue: (queue) => call(queue, (object) => object.countDue()),
    earliestDue: (queue) => call(queue, (object) => object.earliestDue()),
    claimDue: (queue, now, limit, leaseMs) =>
      call(queue, (object) => object.claimDue(now, limit, leaseMs)),
    // Nothing to let go of: every call is a request of its own.
    close: async () => {},
  };
}
