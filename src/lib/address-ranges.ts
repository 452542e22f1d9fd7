import ipaddr from 'ipaddr.js';
import { isDottedQuad } from './ipv4.js';

/**
 * Addresses as peers, proxies and operators write them, and the networks (CIDR ranges, RFC 4632
 * §3.1 for IPv4, RFC 4291 §2.3 for IPv6) they are compared with: TRUST_PROXY's proxies,
 * METRICS_ALLOW, WEBHOOK_ALLOW_NETWORKS, an IPv6 caller's /64.
 *
 * @example
 * const { ranges } = parseAddressRanges(['10.0.0.0/8', 'fd00::/8']);
 * inAddressRanges('10.1.2.3', ranges); // true
 * addressPrefix('2001:db8:1:2::9', 48); // '2001:db8:1::/48'
 */

/** One address; an IPv4-mapped IPv6 address is read as the IPv4 address it stands for. */
export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A network: its address and its prefix length. */
export type AddressRange = [network: Address, prefix: number];

/**
 * One address as peers and proxies write it. Ports some proxies append are dropped
 * (`1.2.3.4:5678`, `[2001:db8::1]:1234`); a bare IPv6 address keeps its colons. IPv4 must be a
 * plain dotted quad, and IPv4-mapped IPv6 (what a dual-stack socket reports) becomes IPv4, so one
 * client has one spelling. Undefined for anything else.
 */
export function parseAddress(text: string): Address | undefined {
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

/** A list of ranges as `parseAddressRange` reads each entry, and the entries that are none. */
export function parseAddressRanges(entries: readonly string[]): {
  ranges: AddressRange[];
  invalid: string[];
} {
  const ranges: AddressRange[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    const range = parseAddressRange(entry);
    if (range) ranges.push(range);
    else invalid.push(entry);
  }
  return { ranges, invalid };
}

/**
 * Addresses are compared after IPv4-mapped IPv6 is turned back into IPv4, so a range written as
 * `::ffff:10.0.0.0/104` has to become `10.0.0.0/8` to ever match.
 */
function unmapRange([network, prefix]: AddressRange): AddressRange {
  if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && prefix >= 96) {
    return [network.toIPv4Address(), prefix - 96];
  }
  return [network, prefix];
}

/** Whether a parsed address lies in a range (never across families). */
export function rangeHolds([network, prefix]: AddressRange, address: Address): boolean {
  return address.kind() === network.kind() && address.match(network, prefix);
}

/** Whether an address (any text form `parseAddress` reads) lies in one of the ranges. */
export function inAddressRanges(address: string, ranges: readonly AddressRange[]): boolean {
  const parsed = parseAddress(address);
  return parsed !== undefined && ranges.some((range) => rangeHolds(range, parsed));
}

/**
 * The network of `prefix` bits an address lies in, as text: `addressPrefix('203.0.113.9', 24)` is
 * `203.0.113.0/24`, `addressPrefix('2001:db8:1:2::9', 48)` is `2001:db8:1::/48` (RFC 5952 form).
 * Undefined when the text is no address (as `parseAddress` reads it) or the prefix is longer than
 * the address (IPv4-mapped IPv6 counts as IPv4: 32 bits).
 */
export function addressPrefix(address: string | Address, prefix: number): string | undefined {
  const parsed = typeof address === 'string' ? parseAddress(address) : address;
  if (parsed === undefined) return undefined;
  const bytes = parsed.toByteArray();
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bytes.length * 8) return undefined;
  const masked = bytes.map((byte, index) => {
    const kept = Math.min(8, Math.max(0, prefix - index * 8));
    return byte & (0xff << (8 - kept)) & 0xff;
  });
  return `${ipaddr.fromByteArray(masked).toString()}/${prefix}`;
}

/**
 * The network a caller lies in, for the limits counted per network: an IPv4 /24, the block one
 * customer of a host or an office is usually given, or an IPv6 /48, the site a tunnel broker or
 * a provider hands out in one piece (RFC 6177 §2). Takes an address or a quota subject
 * (`2001:db8:1:2::/64`); anything else is its own network.
 */
export function callerNetwork(subject: string): string {
  const parsed = parseAddress(subject.replace(/\/64$/, ''));
  if (parsed === undefined) return subject;
  return addressPrefix(parsed, parsed.kind() === 'ipv6' ? 48 : 24) ?? subject;
}
