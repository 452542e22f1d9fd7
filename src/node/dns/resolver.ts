import {
  type CacheOptions,
  type CachingResolver,
  type QueryObserver,
  type RecordType,
  withObserver,
  withResolverStack,
} from '../../dns/index.js';
import { createNodeDns, type NodeDnsOptions } from './node-dns.js';

/**
 * A whole resolver in one call, for the tests and the bench: the Node server builds the same stack
 * from its platform (src/node/platform.ts, src/services.ts). It lives beside the UDP transport it
 * defaults to, as the core runs on Workers too.
 */

export interface ResolverOptions extends NodeDnsOptions {
  /** The platform's cap unless given. */
  maxInFlight?: number;
  cache?: Partial<CacheOptions>;
  /** Sees every query of `observeTypes` (default A) that reaches the wire (per-list health). */
  observe?: QueryObserver;
  observeTypes?: readonly RecordType[];
}

/**
 * The resolver the service runs on: UDP or DoH transport, observed on the wire, capped in flight,
 * cached and coalesced.
 */
export function createResolver(options: ResolverOptions): CachingResolver {
  const wire = createNodeDns(options);
  const observed = options.observe
    ? withObserver(wire.transport, options.observe, options.observeTypes ?? ['A'])
    : wire.transport;
  return withResolverStack(observed, {
    maxInFlight: options.maxInFlight ?? wire.maxInFlight,
    ...(options.cache ? { cache: options.cache } : {}),
  });
}
