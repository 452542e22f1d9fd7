import {
  createDohTlsaLookup,
  createDohTransport,
  type Resolver,
  type TlsaLookup,
} from '../../dns/index.js';
import { createDgramTransport } from './dgram-transport.js';
import { createHttp2Exchanges } from './doh-session.js';

/** The DNS wire of a Node process, as DNS_TRANSPORT names it. */

export interface NodeDnsOptions {
  /** `udp` (default): `servers` over UDP, TCP for truncated answers; `doh`: RFC 8484 to `dohUrls`. */
  transport?: 'udp' | 'doh';
  /** `ip`, `ip:port` or `[ipv6]:port`; empty means the system's resolvers. */
  servers: readonly string[];
  /** The DoH endpoints, in order of preference (`DOH_URL`). */
  dohUrls?: readonly string[];
  timeoutMs: number;
  retries: number;
}

export interface NodeDns {
  transport: Resolver;
  /** Queries on the wire at once (the in-flight cap above the transport). */
  maxInFlight: number;
  /**
   * Over DoH, TLSA with the AD bit (DANE, docs/mail.md) through the same HTTP/2 sessions; over UDP
   * none here (src/node/probes/tlsa-lookup.ts asks the servers itself).
   */
  tlsa?: TlsaLookup;
  /** Closes its sockets or sessions; they never hold the process open, so this is for a clean stop. */
  close(): void;
}

/**
 * Over UDP, 512: the cap's reason is in src/dns/concurrency.ts. Over DoH, 100: every query in
 * flight is a stream of the endpoint's one HTTP/2 session, and RFC 9113 §6.5.2 asks a server to
 * allow at least 100 streams at once, so none waits for a stream inside the session.
 */
export const maxInFlight = { udp: 512, doh: 100 };

export function createNodeDns(options: NodeDnsOptions): NodeDns {
  const kind = options.transport ?? 'udp';
  if (kind === 'doh') {
    const sessions = createHttp2Exchanges();
    return {
      transport: createDohTransport({
        endpoints: options.dohUrls ?? [],
        timeoutMs: options.timeoutMs,
        retries: options.retries,
        exchange: sessions.exchange,
      }),
      maxInFlight: maxInFlight.doh,
      tlsa: createDohTlsaLookup({
        endpoints: options.dohUrls ?? [],
        timeoutMs: options.timeoutMs,
        exchange: sessions.exchange,
      }),
      close: () => sessions.close(),
    };
  }
  const transport = createDgramTransport(options);
  return { transport, maxInFlight: maxInFlight.udp, close: () => transport.close() };
}
