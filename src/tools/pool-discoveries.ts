import type { Store } from '../store/store.js';

/**
 * The latest discover result of each pool: a pool check only takes addresses a discover of that
 * same pool found, so the service never becomes a free bulk DNSBL checker for arbitrary addresses.
 */
export interface PoolDiscoveries {
  latest(pool: string): Promise<string[] | undefined>;
  record(pool: string, addresses: string[]): Promise<void>;
}

export function createPoolDiscoveries(store: Store, ttlMs: number): PoolDiscoveries {
  return {
    async latest(pool) {
      const text = await store.get(`pool-discovery:${pool}`);
      return text === undefined ? undefined : (JSON.parse(text) as string[]);
    },
    record: (pool, addresses) =>
      store.set(`pool-discovery:${pool}`, JSON.stringify(addresses), ttlMs),
  };
}
