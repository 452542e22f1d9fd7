import {
  type CacheOptions,
  type CachingResolver,
  createDohTransport,
  type QueryObserver,
  type RecordType,
  withObserver,
  withResolverStack,
} from '../../dns/index.js';
import { createNodeTransport, type NodeTransportOptions } from './node-transport.js';

/**
 * A whole resolver in one call, for the tests and the bench: the Node server builds the same stack
 * from its platform (src/node/platform.ts, src/services.ts). It lives beside the c-ares transport
 * it defaults to, as the core runs on Workers too.
 */

export interface ResolverOptions extends NodeTransportOptions {
  /** `udp` (default): c-ares over UDP, TCP for truncated answers; `doh`: RFC 8484 to `dohUrls`. */
  transport?: 'udp' | 'doh';
  /** The DoH endpoints, in order of preference (`DOH_URL`). */
  dohUrls?: readonly string[];
  maxInFlight?: number;
  cache?: Partial<CacheOptions>;
  /** Sees every query of `observeTypes` (default A) that reaches the wire (per-list health). */
  observe?: QueryObserver;
  observeTypes?: readonly RecordType[];
}

/**
 * Each DoH query is an HTTP request, and over HTTP/1.1 a request in flight holds a connection:
 * fewer in flight than over UDP keeps the connections to an endpoint few and reused (docs/edge.md).
 */
const defaultMaxInFlight = { udp: 512, doh: 64 };

/**
 * The resolver the service runs on: c-ares or DoH transport, observed on the wire, capped in
 * flight, cached and coalesced.
 */
export function createResolver(options: ResolverOptions): CachingResolver {
  const kind = options.transport ?? 'udp';
  const wire =
    kind === 'doh'
      ? createDohTransport({
          endpoints: options.dohUrls ?? [],
          timeoutMs: options.timeoutMs,
          retries: options.retries,
        })
      : createNodeTransport(options);
  const observed = options.observe
    ? withObserver(wire, options.observe, options.observeTypes ?? ['A'])
    : wire;
  return withResolverStack(observed, {
    maxInFlight: options.maxInFlight ?? defaultMaxInFlight[kind],
    ...(options.cache ? { cache: options.cache } : {}),
  });
}
