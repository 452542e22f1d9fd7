import ipaddr from 'ipaddr.js';

/**
 * IPv6 networks as SPF `ip6` terms name them. The service checks no IPv6 address yet; it only
 * shows a domain's IPv6 senders, and shows none that is not public (RFC 6890, by ipaddr.js's table
 * as for IPv4: unicast, AS112 and AMT are public).
 */

const publicRanges = new Set(['unicast', 'as112v6', 'amt']);

type Block = [ipaddr.IPv6, number];
/** ipaddr.js's table behind `range()`: one [address, prefix] pair or several per name (2.x, pinned). */
const specialRanges = (
  ipaddr.IPv6.prototype as unknown as { SpecialRanges: Record<string, Block | Block[]> }
).SpecialRanges;

const nonPublicBlocks: Block[] = Object.entries(specialRanges)
  .filter(([name]) => !publicRanges.has(name))
  .flatMap(([, blocks]) => (Array.isArray(blocks[0]) ? (blocks as Block[]) : [blocks as Block]));

/**
 * Whether the network `address` or `address/len` holds any public address: false when it lies
 * inside one non-public block (`fe80::/64`, `::1`), true for `2a00:1450::/32` or `::/0`.
 */
export function isPublicIpv6Network(network: string): boolean {
  const [text = '', length] = network.split('/');
  const prefix = length === undefined ? 128 : Number(length);
  const address = ipaddr.IPv6.parse(text);
  return !nonPublicBlocks.some(
    ([block, blockPrefix]) => blockPrefix <= prefix && address.match(block, blockPrefix),
  );
}
