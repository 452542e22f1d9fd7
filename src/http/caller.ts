import ipaddr from 'ipaddr.js';
import { isDottedQuad } from '../reputation/index.js';
import { parseForwarded } from './forwarded.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** Which request headers, if any, may name the caller instead of the socket peer (DESIGN: TRUST_PROXY). */
export type TrustProxy =
  | { mode: 'none' }
  | { mode: 'cloudflare' }
  | { mode: 'hops'; hops: number }
  | { mode: 'cidrs'; cidrs: Range[] };

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

function parseRange(entry: string): Range {
  const range = parseAddressRange(entry);
  if (range) return range;
  throw new Error(`TRUST_PROXY: "${entry.trim()}" is not an address range; ${expected}`);
}

/** A network: an address and a prefix length. */
export type AddressRange = Range;

/**
 * `10.0.0.0/8`, `fc00::/7` or a bare address (a single-address range); undefined for anything
 * else. IPv4-mapped ranges are read as the IPv4 ranges they stand for.
 */
export function parseAddressRange(entry: string): AddressRange | undefined {
  const text = entry.trim();
  if (ipaddr.IPv4.isValidCIDRFourPartDecimal(text) || ipaddr.IPv6.isValidCIDR(text)) {
    return unmapRange(ipaddr.parseCIDR(text));
  }
  const address = parseAddress(text);
  return address ? [address, address.kind() === 'ipv4' ? 32 : 128] : undefined;
}

/** Whether an address (any text form; IPv4-mapped IPv6 as its IPv4 address) lies in a range. */
export function inAddressRanges(address: string, ranges: readonly AddressRange[]): boolean {
  const parsed = parseAddress(address);
  return parsed !== undefined && ranges.some((range) => inRange(parsed, range));
}

/**
 * Addresses are compared after IPv4-mapped IPv6 is turned back into IPv4, so a range written as
 * `::ffff:10.0.0.0/104` has to become `10.0.0.0/8` to ever match.
 */
function unmapRange([network, prefix]: Range): Range {
  if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && prefix >= 96) {
    return [network.toIPv4Address(), prefix - 96];
  }
  return [network, prefix];
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
        trust.cidrs.some((range) => inRange(address, range)),
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
      while (current && trust.cidrs.some((range) => inRange(current!, range))) {
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

function inRange(address: Address, [network, prefix]: Range): boolean {
  return address.kind() === network.kind() && address.match(network, prefix);
}

/**
 * DESIGN counts IPv6 callers per /64: that is the smallest block a subscriber is normally given
 * (RFC 6177), so rotating through one's own addresses must not buy fresh quota.
 */
export function quotaSubject(address: string): string {
  if (isDottedQuad(address)) return address;
  const parsed = parseAddress(address);
  if (!(parsed instanceof ipaddr.IPv6)) return parsed?.toString() ?? address;
  const network = new ipaddr.IPv6([...parsed.parts.slice(0, 4), 0, 0, 0, 0]);
  return `${network.toString()}/64`;
}

/**
 * The network a caller's watches are counted in besides the caller itself (docs/watches.md,
 * "Limits"): an IPv4 /24, the block one customer of a host or an office is usually given, or an
 * IPv6 /48, the site a tunnel broker or a provider hands out in one piece (RFC 6177 §2). Takes an
 * address or a quota subject (`2001:db8:1:2::/64`).
 */
export function networkSubject(subject: string): string {
  const parsed = parseAddress(subject.replace(/\/64$/, ''));
  if (parsed === undefined) return subject;
  if (parsed instanceof ipaddr.IPv4) {
    const [a, b, c] = parsed.octets;
    return `${a}.${b}.${c}.0/24`;
  }
  return `${new ipaddr.IPv6([...parsed.parts.slice(0, 3), 0, 0, 0, 0, 0]).toString()}/48`;
}

/**
 * One address as peers and proxies write it. Ports some proxies append are dropped
 * (`1.2.3.4:5678`, `[2001:db8::1]:1234`); a bare IPv6 address keeps its colons. IPv4 must be a
 * plain dotted quad, and IPv4-mapped IPv6 (what a dual-stack socket reports) becomes IPv4, so one
 * client has one spelling.
 */
function parseAddress(text: string): Address | undefined {
  const host = withoutPort(text.trim());
  if (isDottedQuad(host)) return ipaddr.IPv4.parse(host);
  const embeddedIpv4 = host.includes('.') ? host.slice(host.lastIndexOf(':') + 1) : undefined;
  if (!ipaddr.IPv6.isValid(host) || (embeddedIpv4 && !isDottedQuad(embeddedIpv4))) return undefined;
  const address = ipaddr.IPv6.parse(host);
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

function withoutPort(text: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return bracketed[1] ?? '';
  const ipv4WithPort = /^([\d.]+):\d{1,5}$/.exec(text);
  return ipv4WithPort?.[1] ?? text;
}
