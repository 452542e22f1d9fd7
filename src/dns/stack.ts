import {
  type CacheOptions,
  type CachingResolver,
  defaultCacheOptions,
  withCache,
} from './caching.js';
import { type UnreachableReport, withBackOff } from './back-off.js';
import { withCleanAnswers } from './clean-answers.js';
import { withConcurrencyLimit } from './concurrency.js';
import type { Resolver } from './resolver.js';
import { type ZoneLimitOptions, withZoneLimit } from './zone-limit.js';

export interface StackOptions {
  /** Queries on the wire at once; the rest wait their turn. */
  maxInFlight: number;
  /** Queries in flight under each blocklist zone, for a transport with few slots (Workers). */
  zoneLimit?: ZoneLimitOptions;
  cache?: Partial<CacheOptions>;
  /** Hears when the resolver stops answering, once per back-off wait, and when it answers again. */
  onUnreachable?: (report: UnreachableReport) => void;
}

/**
 * What every transport is wrapped in, on Node and on Workers alike: its answers' text cleaned by
 * one rule (clean-answers.ts), a back-off while the resolver answers nothing (back-off.ts), a cap
 * on queries in flight (and, where slots are few, on those of each list), then the answer cache
 * with in-flight coalescing in front of it.
 */
export function withResolverStack(transport: Resolver, options: StackOptions): CachingResolver {
  const held = withBackOff(
    withCleanAnswers(transport),
    options.onUnreachable ? { onReport: options.onUnreachable } : {},
  );
  const capped = withConcurrencyLimit(held, options.maxInFlight);
  const perZone = options.zoneLimit ? withZoneLimit(capped, options.zoneLimit) : capped;
  return withCache(perZone, { ...defaultCacheOptions, ...options.cache });
}
