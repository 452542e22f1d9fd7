import {
  type Address,
  type AddressRange,
  addressPrefix,
  isDottedQuad,
  parseAddress,
  parseAddressRange,
  rangeHolds,
} from '../lib/index.js';
import { parseForwarded } from './forwarded.js';

/** Which request headers, if any, may name the caller instead of the socket peer (DESIGN: TRUST_PROXY). */
export type TrustProxy =
  | { mode: 'none' }
  | { mode: 'cloudflare' }
  | { mode: 'hops'; hops: number }
  | { mode: 'cidrs'; cidrs: AddressRange[] };

/**
 * The one family of forwarding headers a deployment believes (FORWARDED_HEADERS): the
 * `X-Forwarded-*` headers most proxies set (nginx, HAProxy, load balancers), or `Forwarded` of
 * RFC 7239. Never both: a proxy overwrites or appends to the family it sets and passes the other
 * through as the client sent it, so believing both lets a client's own header win.
 */
export type ForwardedFamily = 'x-forwarded' | 'forwarded';

/**
 * The addresses the proxies appended, the nearest last: X-Forwarded-For's entries, or the `for`
 * parameters of Forwarded's elements (RFC 7239 §5.2; an element without one is an empty entry,
 * which stops a walk).
 */
export function forwardedForEntries(
  header: (name: string) => string | undefined,
  family: ForwardedFamily,
): string[] {
  if (family === 'forwarded') {
    return parseForwarded(header('forwarded') ?? '').map((element) => element.for ?? '');
  }
  return (header('x-forwarded-for') ?? '').split(',');
}

const expected = 'expected none, cloudflare, a hop count or a comma list of CIDRs';

/**
 * Reads the TRUST_PROXY setting: `none`, `cloudflare`, a hop count such as `2`, or a comma list of
 * proxy ranges such as `10.0.0.0/8,::1/128` (a bare address counts as a single-address range).
 * Anything else throws, so a typo stops the process instead of silently trusting nobody or
 * everybody.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim().toLowerCase();
  if (text === 'none') return { mode: 'none' };
  if (text === 'cloudflare') return { mode: 'cloudflare' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (!Number.isSafeInteger(hops)) throw new Error(`TRUST_PROXY: hop count ${text} is too large`);
    return { mode: 'hops', hops };
  }
  if (text === '') throw new Error(`TRUST_PROXY: empty; ${expected}`);
  return { mode: 'cidrs', cidrs: text.split(',').map(parseRange) };
}

function parseRange(entry: string): AddressRange {
  const range = parseAddressRange(entry);
  if (range) return range;
  throw new Error(`TRUST_PROXY: "${entry.trim()}" is not an address range; ${expected}`);
}

/**
 * The address a request is attributed to: the socket peer, or the client a trusted proxy reports.
 *
 * - `none`: the peer, always; forwarding headers are anyone's to forge.
 * - `cloudflare`: `CF-Connecting-IP` when it holds an address, else the peer.
 * - `hops: N`: Express's numeric `trust proxy`: the address N hops away from this server, counting
 *   the peer as hop 0 and X-Forwarded-For entries (or Forwarded's `for` parameters, with
 *   `family` `forwarded`) from the right as hops 1, 2, ... With one proxy
 *   in front (N = 1) that is the right-most entry, the one the proxy appended itself. If the header
 *   has fewer entries, the left-most one is used.
 * - `cidrs`: starting at the peer, step leftwards through X-Forwarded-For while the current
 *   address lies in a trusted range; the first untrusted address is the caller.
 *
 * In the walking modes an entry that is not an address stops the walk at the last address read:
 * nothing further left can be attributed. A peer that is not an address is returned as given, since
 * there is then no one whose headers could be believed.
 */
export function callerAddress(
  peer: string,
  header: (name: string) => string | undefined,
  trust: TrustProxy,
  family: ForwardedFamily = 'x-forwarded',
): string {
  // A plain dotted quad is already in canonical form: the common case skips parsing.
  if (trust.mode === 'none' && isDottedQuad(peer)) return peer;
  const peerAddress = parseAddress(peer);
  if (!peerAddress) return peer;
  switch (trust.mode) {
    case 'none':
      return peerAddress.toString();
    case 'cloudflare':
      return (parseAddress(header('cf-connecting-ip') ?? '') ?? peerAddress).toString();
    case 'hops':
      return walkForwardedFor(
        peerAddress,
        forwardedForEntries(header, family),
        (_, hop) => hop < trust.hops,
      ).toString();
    case 'cidrs':
      return walkForwardedFor(peerAddress, forwardedForEntries(header, family), (address) =>
        trust.cidrs.some((range) => rangeHolds(range, address)),
      ).toString();
  }
}

/**
 * How many proxies in front of this server TRUST_PROXY believes, the socket peer being the first:
 * 0 when the peer is not trusted. `cloudflare` trusts the one edge that connects to the origin;
 * `hops: N` trusts N; `cidrs` counts the peer and then each X-Forwarded-For entry, from the right,
 * while it lies in a trusted range (the walk `callerAddress` does). The forwarding headers' entry
 * written by the outermost of them describes the request as the client made it (docs/pages.md).
 */
export function trustedProxyCount(
  peer: string,
  header: (name: string) => string | undefined,
  trust: TrustProxy,
  family: ForwardedFamily = 'x-forwarded',
): number {
  switch (trust.mode) {
    case 'none':
      return 0;
    case 'cloudflare':
      return 1;
    case 'hops':
      return trust.hops;
    case 'cidrs': {
      const entries = forwardedForEntries(header, family).reverse();
      let current = parseAddress(peer);
      let count = 0;
      while (current && trust.cidrs.some((range) => rangeHolds(range, current!))) {
        count++;
        current = parseAddress(entries[count - 1] ?? '');
      }
      return count;
    }
  }
}

/** The walk of proxy-addr, the module behind Express's `trust proxy`, with hop 0 being the peer. */
function walkForwardedFor(
  peer: Address,
  forwardedFor: readonly string[],
  trusted: (address: Address, hop: number) => boolean,
): Address {
  const entries = [...forwardedFor].reverse();
  let current = peer;
  for (let hop = 0; hop < entries.length && trusted(current, hop); hop++) {
    const next = parseAddress(entries[hop] ?? '');
    if (!next) break;
    current = next;
  }
  return current;
}

/**
 * DESIGN counts IPv6 callers per /64: that is the smallest block a subscriber is normally given
 * (RFC 6177), so rotating through one's own addresses must not buy fresh quota.
 */
export function quotaSubject(address: string): string {
  if (isDottedQuad(address)) return address;
  const parsed = parseAddress(address);
  if (parsed === undefined) return address;
  return parsed.kind() === 'ipv6' ? addressPrefix(parsed, 64)! : parsed.toString();
}
