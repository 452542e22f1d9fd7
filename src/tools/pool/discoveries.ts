import type { Store } from '../../store/index.js';

/**
 * The addresses discovers of each pool have found: a pool check only takes addresses a discover
 * of that same pool found, so the service never becomes a free bulk DNSBL checker for arbitrary
 * addresses. Kept in the store as a set per pool, each address living for the token TTL from the
 * last discover that found it: a check is judged against every discover still alive (not only
 * the latest), so it works after a restart, on another process, and for a caller holding an
 * older discover token of a pool whose addresses rotate.
 */
export interface PoolDiscoveries {
  /** Every address found by a live discover of the pool; empty when there is none. */
  alive(pool: string): Promise<Set<string>>;
  record(pool: string, addresses: readonly string[]): Promise<void>;
}

export function createPoolDiscoveries(store: Store, ttlMs: number): PoolDiscoveries {
  return {
    alive: async (pool) => new Set(await store.members(`pool-discovery:${pool}`)),
    record: (pool, addresses) => store.addMembers(`pool-discovery:${pool}`, addresses, ttlMs),
  };
}
