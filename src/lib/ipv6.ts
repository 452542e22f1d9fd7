import ipaddr from 'ipaddr.js';
import { isDottedQuad } from './ipv4.js';

/**
 * IPv6 addresses as the service takes, shows and looks them up: any RFC 4291 §2.2 text form in,
 * the RFC 5952 canonical form out, the reversed nibbles of RFC 3596 §2.5 (ip6.arpa) and RFC 5782
 * §2.4 (DNSBLs) to ask about them, and the rule for which of them are public (docs/ipv6.md).
 */

/** RFC 4291 §2.2 / RFC 3986 §3.2.2: one group of one to four hexadecimal digits. */
const hexGroup = /^[0-9a-f]{1,4}$/i;

/**
 * Whether `text` is one of RFC 4291 §2.2's text forms, exactly: eight groups of one to four hex
 * digits, or fewer with one `::`, the last two groups optionally a dotted quad (form 3). No zone
 * index (`%eth0`, RFC 4007: link-local only), no prefix length, no brackets, no IPv4 in the
 * octal or short forms inet_aton reads.
 */
export function isIpv6Text(text: string): boolean {
  if (text.length > 45 || !text.includes(':')) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const all = [...head, ...tail];
  // Only the text's very end may be a dotted quad: `1.2.3.4::` is no address.
  const end = text.slice(text.lastIndexOf(':') + 1);
  const embedsIpv4 = end.includes('.');
  if (embedsIpv4 && !isDottedQuad(end)) return false;
  const hexGroups = embedsIpv4 ? all.slice(0, -1) : all;
  if (!hexGroups.every((group) => hexGroup.test(group))) return false;
  // A dotted quad holds two groups' worth of bits.
  const groups = hexGroups.length + (embedsIpv4 ? 2 : 0);
  // `::` stands for one or more zero groups (RFC 4291 §2.2 item 2; RFC 5952 §4.2.2 writes no
  // `::` for a single one, but reading one is allowed).
  return halves.length === 2 ? groups <= 7 : groups === 8;
}

/** The address, or undefined when `text` is not an RFC 4291 text form. */
export function parseIpv6(text: string): ipaddr.IPv6 | undefined {
  return isIpv6Text(text) ? ipaddr.IPv6.parse(text) : undefined;
}

/**
 * RFC 5952 §4: lowercase, leading zeros dropped, the longest run of two or more zero groups (the
 * first of equals) as `::`. `2001:0DB8:0:0:0:0:0:1` -> `2001:db8::1`.
 */
export function canonicalIpv6(address: string | ipaddr.IPv6): string {
  return (typeof address === 'string' ? ipaddr.IPv6.parse(address) : address).toRFC5952String();
}

/** Whether a text is an IPv6 address rather than a dotted quad (DNS answers and results hold both). */
export function isIpv6(address: string): boolean {
  return address.includes(':');
}

type Block = readonly [network: string, prefix: number];

/**
 * RFC 4291 §2.4 and the IANA IPv6 Address Space registry: global unicast is 2000::/3; everything
 * else (::/8 with the unspecified, loopback, IPv4-mapped, IPv4-compatible and IPv4-translated
 * addresses; 64:ff9b::/96 and 64:ff9b:1::/48, RFC 6052 and RFC 8215; 100::/64 discard, RFC 6666;
 * 100:0:0:1::/64, RFC 9780; 5f00::/16 segment routing, RFC 9602; fc00::/7 unique local, RFC 4193;
 * fe80::/10 link-local; fec0::/10 site-local, RFC 3879; ff00::/8 multicast; the space still
 * reserved by the IETF) is not an address public mail comes from.
 */
const globalUnicast: Block = ['2000::', 3];

/**
 * Inside 2000::/3, the blocks of the IANA IPv6 Special-Purpose Address Registry (RFC 6890) that
 * are not globally reachable, plus two decisions (docs/ipv6.md):
 *
 * - 2001::/23 IETF protocol assignments (RFC 2928): Teredo 2001::/32 (RFC 4380, it embeds an
 *   IPv4 address), the PCP and TURN anycast addresses, benchmarking 2001:2::/48 (RFC 5180),
 *   ORCHID 2001:10::/28 and ORCHIDv2 2001:20::/28 (RFC 7343: identifiers, never routed), DRIP
 *   2001:30::/28 (RFC 9374: identifiers too). AMT and AS112 are taken back out below.
 * - 2001:db8::/32 (RFC 3849) and 3fff::/20 (RFC 9637): documentation.
 * - 2002::/16, 6to4 (RFC 3056): it embeds an IPv4 address (2002:0a00:0001::/48 is 10.0.0.1's),
 *   so it would be a way around the IPv4 rule, and its anycast relays are deprecated (RFC 7526).
 */
const nonPublicInGlobalUnicast: readonly Block[] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

/**
 * Globally reachable anycast blocks inside 2001::/23, public as their IPv4 counterparts are
 * (ipv4.ts): AMT relays 2001:3::/32 (RFC 7450) and AS112 2001:4:112::/48 (RFC 7535).
 */
const publicInNonPublic: readonly Block[] = [
  ['2001:3::', 32],
  ['2001:4:112::', 48],
];

const parsedBlocks = (blocks: readonly Block[]) =>
  blocks.map(([network, prefix]) => [ipaddr.IPv6.parse(network), prefix] as const);
const globalUnicastBlock = parsedBlocks([globalUnicast])[0]!;
const nonPublicBlocks = parsedBlocks(nonPublicInGlobalUnicast);
const publicExceptions = parsedBlocks(publicInNonPublic);

type Parsed = readonly [ipaddr.IPv6, number];

const inside = ([address, prefix]: Parsed, [block, blockPrefix]: Parsed) =>
  prefix >= blockPrefix && address.match(block, blockPrefix);
const overlaps = (a: Parsed, b: Parsed) => inside(a, b) || inside(b, a);

/**
 * Whether the network `address/prefix` holds any public address: it reaches into 2000::/3, and
 * not only into blocks that are not public there.
 */
function holdsPublic(network: Parsed): boolean {
  if (!overlaps(network, globalUnicastBlock)) return false;
  const within = nonPublicBlocks.find((block) => inside(network, block));
  return within === undefined || publicExceptions.some((block) => overlaps(network, block));
}

/**
 * Whether an address (any RFC 4291 text form) is one the service may check: `2a00:1450::1` is,
 * `fe80::1`, `::ffff:8.8.8.8` (IPv4-mapped: check the IPv4 address itself), `64:ff9b::808:808`,
 * `2001:db8::1` and `2002:a00:1::` are not.
 */
export function isPublicIpv6(text: string): boolean {
  const address = parseIpv6(text);
  return address !== undefined && holdsPublic([address, 128]);
}

/**
 * Whether the network `address` or `address/len` (as SPF `ip6` terms name them) holds any public
 * address: false when it lies wholly in non-public space (`fe80::/64`, `::1`, `2001:db8::/48`),
 * true for `2a00:1450::/32` or `::/0`.
 */
export function isPublicIpv6Network(network: string): boolean {
  const [text = '', length] = network.split('/');
  const prefix = length === undefined ? 128 : Number(length);
  return holdsPublic([ipaddr.IPv6.parse(text), prefix]);
}

/** The 32 hexadecimal digits of an address, most significant first. */
function hexDigits(address: string): string {
  return ipaddr.IPv6.parse(address)
    .parts.map((part) => part.toString(16).padStart(4, '0'))
    .join('');
}

/**
 * RFC 3596 §2.5 and RFC 5782 §2.4: the address's 32 nibbles, least significant first, dot-separated
 * (`2001:db8::1` -> `1.0.0.0. ... .8.b.d.0.1.0.0.2`), the name it has under ip6.arpa and under an
 * IPv6 DNSBL's zone.
 */
export function reversedNibbles(address: string): string {
  return hexDigits(address).split('').reverse().join('.');
}

/** The address as an unsigned 128-bit number, for sorting and range arithmetic. */
export function ipv6ToBigInt(address: string): bigint {
  return BigInt(`0x${hexDigits(address)}`);
}

/** A 128-bit number as an address, in RFC 5952 canonical form. */
export function bigIntToIpv6(value: bigint): string {
  const parts = Array.from({ length: 8 }, (_, index) =>
    Number((value >> BigInt(112 - 16 * index)) & 0xffffn),
  );
  return new ipaddr.IPv6(parts).toRFC5952String();
}

export function compareIpv6(a: string, b: string): number {
  const difference = ipv6ToBigInt(a) - ipv6ToBigInt(b);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}
