import { quotaSubject, type TrustProxy } from '../http/index.js';
import { inAddressRanges } from '../lib/index.js';

/**
 * Connections per client (docs/http-hardening.md#connections-per-client): one client
 * may hold at most MAX_CONNECTIONS_PER_CLIENT of the process's connections, so it cannot take the
 * MAX_CONNECTIONS every other caller shares.
 */

/**
 * The client a connection counts against, from its socket's remote address: an IPv4 address; an
 * IPv6 address by its /64, the smallest block a subscriber is normally given (RFC 6177), as the
 * quota counts callers; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2, what a
 * dual-stack socket reports) as the IPv4 address it carries.
 */
export function connectionClient(remoteAddress: string): string {
  return quotaSubject(remoteAddress);
}

/** The open connections of each client. */
export interface ClientConnections {
  /** Counts a new connection of `client`; false, and not counted, when it already holds `max`. */
  open(client: string): boolean;
  /** One connection of `client` closed. */
  close(client: string): void;
}

export function countClientConnections(max: number): ClientConnections {
  const open = new Map<string, number>();
  return {
    open(client) {
      const held = open.get(client) ?? 0;
      if (held >= max) return false;
      open.set(client, held + 1);
      return true;
    },
    close(client) {
      const held = (open.get(client) ?? 0) - 1;
      // A client without connections leaves no entry: the map holds the clients connected now.
      if (held > 0) open.set(client, held);
      else open.delete(client);
    },
  };
}

/**
 * The peers not capped per client: the proxies TRUST_PROXY believes. Each of their connections
 * carries some other client's requests, and the proxy caps its clients itself (nginx's
 * `limit_conn`, Cloudflare's own limits). A hop count and `cloudflare` believe the forwarded
 * headers of every peer, so every peer is a proxy to them; CIDRs name the proxies, and every other
 * peer is capped.
 */
export function uncappedPeers(trust: TrustProxy): (remoteAddress: string) => boolean {
  switch (trust.mode) {
    case 'none':
      return () => false;
    case 'cloudflare':
    case 'hops':
      return () => true;
    case 'cidrs':
      return (remoteAddress) => inAddressRanges(remoteAddress, trust.cidrs);
  }
}
