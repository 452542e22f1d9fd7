import ipaddr from 'ipaddr.js';

/**
 * Strict dotted-quad IPv4 (RFC 791 text form as users write it): four decimal octets, no leading
 * zeros, so the octal, hex and short forms that inet_aton accepts (`01.2.3.4`, `0x7f.1`, `1.2.3`)
 * are refused rather than read as some other address.
 */
const dottedQuad = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isDottedQuad(text: string): boolean {
  return dottedQuad.test(text);
}

/**
 * Ranges that RFC 6890 marks globally reachable stay public: ordinary unicast plus the AS112 and
 * AMT anycast blocks. Everything else ipaddr.js classifies (private, loopback, link-local, CGNAT,
 * multicast, documentation, benchmarking, reserved, broadcast, "this network") is not public.
 */
const publicRanges = new Set(['unicast', 'as112', 'amt']);

export function isPublicIpv4(address: string): boolean {
  return isDottedQuad(address) && publicRanges.has(ipaddr.IPv4.parse(address).range());
}

/** RFC 5782 §2.1: an IPv4 address is looked up with its octets reversed, `1.2.3.4` as `4.3.2.1`. */
export function reversedOctets(address: string): string {
  return address.split('.').reverse().join('.');
}

/** The address as an unsigned 32-bit number, for numeric sorting and range arithmetic. */
export function ipv4ToNumber(address: string): number {
  return ipaddr.IPv4.parse(address)
    .toByteArray()
    .reduce((sum, octet) => sum * 256 + octet, 0);
}

export function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

export function compareIpv4(a: string, b: string): number {
  return ipv4ToNumber(a) - ipv4ToNumber(b);
}
