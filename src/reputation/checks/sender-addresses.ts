import {
  bigIntToIpv6,
  ipv4ToNumber,
  ipv6ToBigInt,
  isIpv6,
  isPublicIpv6Network,
  isPublicNetwork,
  numberToIpv4,
} from '../../lib/index.js';
import { maxListedAddresses, maxListedNetworks, type SenderRange } from '../results/index.js';

/**
 * A domain's senders as a result lists them: single addresses apart from ranges
 * (docs/checks.md#bounded-results). A network of at most 16 addresses (an IPv4 /28 or an IPv6 /124,
 * or longer) is written out address by address; a larger one is a range. Nothing that is not public
 * is listed (docs/ipv6.md).
 */

/** The largest network written out address by address: a /28, or an IPv6 /124. */
export const maxExpandedRange = 16;

export type { SenderRange } from '../results/index.js';

export interface SenderAddresses {
  /**
   * Single addresses, no duplicates: IPv4 sorted numerically, then IPv6 (RFC 5952 form) sorted
   * numerically; the first `maxListedAddresses` of both together.
   */
  ips: string[];
  /** Every single address found, however many are listed. */
  ipsTotal: number;
  /** IPv4 ranges, sorted by network then prefix length: the first `maxListedNetworks`. */
  ranges: SenderRange[];
  rangesTotal: number;
  /**
   * IPv6 ranges as `address/len` (RFC 5952 form, host bits cleared), sorted the same way: the first
   * `maxListedNetworks`. Apart from `ranges`, whose `size` would pass 2^53 for any IPv6 network
   * larger than a /75.
   */
  ip6Ranges: string[];
  ip6RangesTotal: number;
}

interface Network {
  start: bigint;
  prefix: number;
}

/**
 * What tells the two families apart here. Addresses are counted as bigints for both: a record's
 * few thousand networks cost a few milliseconds either way, and one code path does both.
 */
interface Family {
  bits: number;
  parse(address: string): bigint;
  format(value: bigint): string;
  isPublic(network: Network, entry: string): boolean;
}

const ipv4: Family = {
  bits: 32,
  parse: (address) => BigInt(ipv4ToNumber(address)),
  format: (value) => numberToIpv4(Number(value)),
  isPublic: (network) => isPublicNetwork(Number(network.start), network.prefix),
};

const ipv6: Family = {
  bits: 128,
  parse: ipv6ToBigInt,
  format: bigIntToIpv6,
  isPublic: (_, entry) => isPublicIpv6Network(entry),
};

const byNumber = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

interface Sorted {
  ips: string[];
  ipsTotal: number;
  ranges: [string, Network][];
}

/**
 * One family's entries: public networks of up to 16 addresses as merged intervals, of which only
 * the first `room` addresses are written out; larger ones as ranges.
 */
function sortFamily(family: Family, entries: readonly string[], room: number): Sorted {
  const intervals: [bigint, bigint][] = [];
  const ranges = new Map<string, Network>();
  for (const entry of entries) {
    const [address = '', length] = entry.split('/');
    const prefix = length === undefined ? family.bits : Number(length);
    const size = 1n << BigInt(family.bits - prefix);
    // Host bits cleared: the network's first address.
    const start = (family.parse(address) / size) * size;
    const network = { start, prefix };
    if (!family.isPublic(network, entry)) continue;
    if (size <= BigInt(maxExpandedRange)) intervals.push([start, start + size]);
    else ranges.set(`${family.format(start)}/${prefix}`, network);
  }

  intervals.sort((a, b) => byNumber(a[0], b[0]));
  const merged: [bigint, bigint][] = [];
  for (const [start, end] of intervals) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = end > last[1] ? end : last[1];
    else merged.push([start, end]);
  }
  const ips: string[] = [];
  let ipsTotal = 0;
  for (const [start, end] of merged) {
    ipsTotal += Number(end - start);
    for (let value = start; value < end && ips.length < room; value++) {
      ips.push(family.format(value));
    }
  }
  const sortedRanges = [...ranges].sort(
    ([, a], [, b]) => byNumber(a.start, b.start) || a.prefix - b.prefix,
  );
  return { ips, ipsTotal, ranges: sortedRanges };
}

/**
 * Sorts `a.b.c.d`, `a.b.c.d/len`, IPv6 `address` and `address/len` entries into single addresses
 * and ranges. The addresses are counted as merged intervals and only the listed ones are written
 * out, so a record of 3,000 /28 terms (48,000 addresses) costs 3,000 intervals, not 48,000
 * strings. An address inside a listed range stays listed: it was named on its own (an MX host,
 * an `a` term) and is the one a DNSBL can be asked about.
 *
 * @example
 * senderAddresses(['185.9.0.9', '185.30.0.0/24', '185.9.0.0/30', '10.0.0.1', '2a00:1450::5'])
 * // { ips: ['185.9.0.0', '185.9.0.1', '185.9.0.2', '185.9.0.3', '185.9.0.9', '2a00:1450::5'],
 * //   ipsTotal: 6, ranges: [{ network: '185.30.0.0/24', size: 256 }], rangesTotal: 1,
 * //   ip6Ranges: [], ip6RangesTotal: 0 }
 */
export function senderAddresses(entries: readonly string[]): SenderAddresses {
  const v4 = sortFamily(
    ipv4,
    entries.filter((entry) => !isIpv6(entry)),
    maxListedAddresses,
  );
  const v6 = sortFamily(ipv6, entries.filter(isIpv6), maxListedAddresses - v4.ips.length);
  return {
    ips: [...v4.ips, ...v6.ips],
    ipsTotal: v4.ipsTotal + v6.ipsTotal,
    ranges: v4.ranges
      .slice(0, maxListedNetworks)
      .map(([network, { prefix }]) => ({ network, size: 2 ** (32 - prefix) })),
    rangesTotal: v4.ranges.length,
    ip6Ranges: v6.ranges.slice(0, maxListedNetworks).map(([network]) => network),
    ip6RangesTotal: v6.ranges.length,
  };
}
