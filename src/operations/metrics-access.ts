import type { Context } from 'hono';
import { type AppEnv, callerAddress } from '../http/index.js';
import { type AddressRange, inAddressRanges, parseAddressRange, utf8 } from '../lib/index.js';

/**
 * Who may read GET /metrics (docs/operations.md): a loopback socket that carries no forwarding
 * header, and the callers in METRICS_ALLOW; with METRICS_TOKEN set, each of them must also send
 * `Authorization: Bearer <token>`. Anyone else is answered the ordinary 404 of an unknown route,
 * so the path tells a stranger nothing.
 *
 * The loopback rule reads the socket, never a header: a header naming 127.0.0.1 is anyone's to
 * send, whatever TRUST_PROXY believes, and a loopback peer that relays a forwarding header is a
 * proxy on this machine speaking for someone else. METRICS_ALLOW is judged on the caller
 * TRUST_PROXY derives (the operator's ranges behind the operator's proxy), except when a request
 * carries a forwarding header TRUST_PROXY did not take the caller from: it came through a proxy
 * the service does not trust, and its address counts for nothing.
 */

export interface MetricsAccess {
  /** METRICS_ALLOW: ranges allowed besides a loopback socket. */
  allow: readonly AddressRange[];
  /** METRICS_TOKEN. */
  token?: string;
}

/** RFC 1122 §3.2.1.3 (127.0.0.0/8) and RFC 4291 §2.5.3 (::1). */
const loopback = ['127.0.0.0/8', '::1/128'].map((cidr) => parseAddressRange(cidr)!);

/** Headers by which a proxy, a CDN or a load balancer speaks for a client (RFC 7239 and kin). */
const forwardingHeaders = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'cf-connecting-ip',
  'true-client-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'fastly-client-ip',
  'via',
];

export function metricsReader(
  access: MetricsAccess,
  peerAddress: (c: Context) => string,
  digest: (bytes: Uint8Array) => Promise<Uint8Array>,
): (c: Context<AppEnv>) => Promise<boolean> {
  const expected = access.token === undefined ? undefined : digest(utf8.encode(access.token));

  /** Compared as SHA-256 digests, every byte: the time taken says nothing of the token. */
  async function tokenMatches(given: string): Promise<boolean> {
    const [a, b] = await Promise.all([expected!, digest(utf8.encode(given))]);
    let difference = a.length ^ b.length;
    for (let i = 0; i < a.length; i++) difference |= a[i]! ^ (b[i] ?? 0);
    return difference === 0;
  }

  return async (c) => {
    const { address } = c.get('caller');
    const peer = callerAddress(peerAddress(c), () => undefined, { mode: 'none' });
    const forwarded = forwardingHeaders.some((name) => c.req.header(name) !== undefined);
    const onLoopback = !forwarded && inAddressRanges(peer, loopback);
    const relayed = forwarded && address === peer;
    const inAllowed = !relayed && inAddressRanges(address, access.allow);
    if (!onLoopback && !inAllowed) return false;
    if (expected === undefined) return true;
    // RFC 6750 §2.1; the scheme is case-insensitive (RFC 9110 §11.1).
    const bearer = /^bearer +(\S+) *$/i.exec(c.req.header('authorization') ?? '');
    return bearer !== null && (await tokenMatches(bearer[1]!));
  };
}
