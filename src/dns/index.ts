import type { CacheOptions } from './caching.js';
import { createDohTransport } from './doh-transport.js';
import { createNodeTransport, type NodeTransportOptions } from './node-transport.js';
import type { Resolver } from './resolver.js';
import { withResolverStack } from './stack.js';

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
  /** `udp` (default): c-ares over UDP, TCP for truncated answers; `doh`: RFC 8484 to `dohUrls`. */
  transport?: 'udp' | 'doh';
  /** The DoH endpoints, in order of preference (`DOH_URL`). */
  dohUrls?: readonly string[];
  maxInFlight?: number;
  cache?: Partial<CacheOptions>;
}

/**
 * Each DoH query is an HTTP request, and over HTTP/1.1 a request in flight holds a connection:
 * fewer in flight than over UDP keeps the connections to an endpoint few and reused (docs/edge.md).
 */
const defaultMaxInFlight = { udp: 512, doh: 64 };

/** The resolver the service runs on: c-ares or DoH transport, capped in flight, cached and coalesced. */
export function createResolver(options: ResolverOptions): Resolver {
  const kind = options.transport ?? 'udp';
  const transport =
    kind === 'doh'
      ? createDohTransport({
          endpoints: options.dohUrls ?? [],
          timeoutMs: options.timeoutMs,
          retries: options.retries,
        })
      : createNodeTransport(options);
  return withResolverStack(transport, {
    maxInFlight: options.maxInFlight ?? defaultMaxInFlight[kind],
    ...(options.cache ? { cache: options.cache } : {}),
  });
}
