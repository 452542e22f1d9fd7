import { type CacheOptions, defaultCacheOptions, withCache } from './caching.js';
import { withConcurrencyLimit } from './concurrency.js';
import { createNodeTransport, type NodeTransportOptions } from './node-transport.js';
import type { Resolver } from './resolver.js';

export type {
  DnsOutcome,
  DnsStatus,
  MxRecord,
  QueryOptions,
  RecordData,
  RecordType,
  Resolver,
} from './resolver.js';
export { recordsOf } from './resolver.js';

export interface ResolverOptions extends NodeTransportOptions {
  maxInFlight?: number;
  cache?: Partial<CacheOptions>;
}

/** The resolver the service runs on: c-ares transport, capped in flight, cached and coalesced. */
export function createResolver(options: ResolverOptions): Resolver {
  const transport = withConcurrencyLimit(createNodeTransport(options), options.maxInFlight ?? 512);
  return withCache(transport, { ...defaultCacheOptions, ...options.cache });
}
