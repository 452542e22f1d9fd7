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

/**
 * ipaddr.js's RFC 6890 table behind `range()`: name -> [address, prefix] pairs. It is not in the
 * package's type declarations, but it is what `range()` reads (ipaddr.js 2.x, pinned).
 */
type SpecialRangeTable = Record<string, [ipaddr.IPv4, number][]>;
const specialRanges = (ipaddr.IPv4.prototype as unknown as { SpecialRanges: SpecialRangeTable })
  .SpecialRanges;

/**
 * The non-public address space as [first, last] address numbers, blocks that touch merged
 * (224.0.0.0/4 multicast and 240.0.0.0/4 reserved make one): a network inside one of these holds
 * no public address, and one that reaches outside all of them holds some.
 */
const nonPublicBlocks: [number, number][] = Object.entries(specialRanges)
  .filter(([name]) => !publicRanges.has(name))
  .flatMap(([, blocks]) => blocks)
  .map(([address, prefix]): [number, number] => {
    const first = ipv4ToNumber(address.toString());
    return [first, first + 2 ** (32 - prefix) - 1];
  })
  .sort((a, b) => a[0] - b[0])
  .reduce<[number, number][]>((merged, block) => {
    const previous = merged.at(-1);
    if (previous && block[0] <= previous[1] + 1) previous[1] = Math.max(previous[1], block[1]);
    else merged.push(block);
    return merged;
  }, []);

/**
 * Whether the network of `2^(32 - prefix)` addresses from `start` holds any public address: false
 * for `10.1.0.0/16` or `127.0.0.1`, true for `0.0.0.0/0`. Every non-public block is a /24 or
 * larger (bar the broadcast address, inside 240.0.0.0/4), so a network of up to 256 addresses is
 * either all public or all not.
 */
export function isPublicNetwork(start: number, prefix: number): boolean {
  const last = start + 2 ** (32 - prefix) - 1;
  return !nonPublicBlocks.some(([first, end]) => first <= start && last <= end);
}

/** RFC 5782 §2.1: an IPv4 address is looked up with its octets reversed, `1.2.3.4` as `4.3.2.1`. */
export function reversedOctets(address: string): string {
  return address.split('.').reverse().join('.');
}

/** The address as an unsigned 32-bit number, for numeric sorting and range arithmetic. */
export function ipv4ToNumber(address: string): number {
  // Dotted quads (every address DNS answers and SPF terms hold) without a parser: a record of
  // thousands of ip4 terms is read in a few milliseconds.
  const octets = isDottedQuad(address) ? address.split('.').map(Number) : null;
  return (octets ?? ipaddr.IPv4.parse(address).toByteArray()).reduce(
    (sum, octet) => sum * 256 + octet,
    0,
  );
}

export function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

export function compareIpv4(a: string, b: string): number {
  return ipv4ToNumber(a) - ipv4ToNumber(b);
}
