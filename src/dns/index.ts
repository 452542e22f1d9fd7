import {
  type CacheOptions,
  type CachingResolver,
  defaultCacheOptions,
  withCache,
} from './caching.js';
import { withConcurrencyLimit } from './concurrency.js';
import { createNodeTransport, type NodeTransportOptions } from './node-transport.js';
import { type QueryObserver, withObserver } from './observed.js';
import type { RecordType } from './resolver.js';

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
export type { CachingResolver } from './caching.js';
export type { QueryObserver } from './observed.js';

export interface ResolverOptions extends NodeTransportOptions {
  maxInFlight?: number;
  cache?: Partial<CacheOptions>;
  /** Sees every query of `observeTypes` (default A) that reaches the wire (per-list health). */
  observe?: QueryObserver;
  observeTypes?: readonly RecordType[];
}

/** The resolver the service runs on: c-ares transport, capped in flight, cached and coalesced. */
export function createResolver(options: ResolverOptions): CachingResolver {
  const wire = createNodeTransport(options);
  const observed = options.observe
    ? withObserver(wire, options.observe, options.observeTypes ?? ['A'])
    : wire;
  const transport = withConcurrencyLimit(observed, options.maxInFlight ?? 512);
  return withCache(transport, { ...defaultCacheOptions, ...options.cache });
}
