import type { Resolver } from '../../dns/index.js';
import type { DnsblEngine, PoolDiscoveryOptions } from '../../reputation/index.js';
import type { Store } from '../../store/index.js';
import type { SnapshotDeps } from '../common/index.js';

/** What the pool tool's routes need. */
export interface PoolToolDeps extends SnapshotDeps {
  resolver: Resolver;
  dnsbl: DnsblEngine;
  deadlineMs: number;
  now: () => Date;
  /** Where discoveries are kept, for as long as their tokens. */
  store: Store;
  tokenTtlMs: number;
  pool: {
    /** POOL_MAX_IPS: the most addresses a discover keeps and a check takes. */
    maxIps: number;
    discovery: Pick<
      PoolDiscoveryOptions,
      'nameServerPort' | 'allowNonPublicNameServers' | 'askNameServers'
    >;
  };
}
