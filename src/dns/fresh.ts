import { askResolver, resolverOf } from './asking.js';
import type { Resolver } from './resolver.js';

/**
 * A resolver whose every query skips the answer cache and the coalescing of queries in flight
 * (`QueryOptions.bypassCache`): a watch's re-check must hear what the lists say now, not what
 * they said to a check a minute ago.
 */
export function withFreshAnswers(resolver: Resolver): Resolver {
  return resolverOf((name, type, options, listener) =>
    askResolver(resolver, name, type, { ...options, bypassCache: true }, listener),
  );
}
