import {
  type CacheOptions,
  type CachingResolver,
  defaultCacheOptions,
  withCache,
} from './caching.js';
import { withConcurrencyLimit } from './concurrency.js';
import type { Resolver } from './resolver.js';

export interface StackOptions {
  /** Queries on the wire at once; the rest wait their turn. */
  maxInFlight: number;
  cache?: Partial<CacheOptions>;
}

/**
 * What every transport is wrapped in, on Node and on Workers alike: a cap on queries in flight,
 * then the answer cache with in-flight coalescing in front of it.
 */
export function withResolverStack(transport: Resolver, options: StackOptions): CachingResolver {
  const capped = withConcurrencyLimit(transport, options.maxInFlight);
  return withCache(capped, { ...defaultCacheOptions, ...options.cache });
}
