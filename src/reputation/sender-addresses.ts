import { ipv4ToNumber, isPublicNetwork, numberToIpv4 } from './ipv4.js';
import { maxListedAddresses, maxListedNetworks } from './result-limits.js';
import type { SenderRange } from './result-schemas.js';

/**
 * A domain's IPv4 senders as a result lists them: single addresses apart from ranges (issue 17).
 * A network of at most 16 addresses (a /28 or longer) is written out address by address; a larger
 * one is a range, with its size. Nothing that is not public is listed.
 */

/** The largest network written out address by address: a /28. */
export const maxExpandedRange = 16;

export type { SenderRange } from './result-schemas.js';

export interface SenderAddresses {
  /** Single addresses, sorted numerically, no duplicates: the first `maxListedAddresses`. */
  ips: string[];
  /** Every single address found, however many are listed. */
  ipsTotal: number;
  /** Ranges, sorted by network then prefix length: the first `maxListedNetworks`. */
  ranges: SenderRange[];
  rangesTotal: number;
}

interface Network {
  start: number;
  prefix: number;
}

function parseNetwork(entry: string): Network {
  const [address = '', length] = entry.split('/');
  const prefix = length === undefined ? 32 : Number(length);
  const size = 2 ** (32 - prefix);
  return { start: Math.floor(ipv4ToNumber(address) / size) * size, prefix };
}

/**
 * Sorts `a.b.c.d` and `a.b.c.d/len` entries into single addresses and ranges. The addresses are
 * counted as merged intervals and only the listed ones are written out, so a record of 3,000 /28
 * terms (48,000 addresses) costs 3,000 intervals, not 48,000 strings. An address inside a listed
 * range stays listed: it was named on its own (an MX host, an `a` term) and is the one a DNSBL can
 * be asked about.
 *
 * @example
 * senderAddresses(['185.9.0.9', '185.30.0.0/24', '185.9.0.0/30', '10.0.0.1'])
 * // { ips: ['185.9.0.0', '185.9.0.1', '185.9.0.2', '185.9.0.3', '185.9.0.9'], ipsTotal: 5,
 * //   ranges: [{ network: '185.30.0.0/24', size: 256 }], rangesTotal: 1 }
 */
export function senderAddresses(entries: readonly string[]): SenderAddresses {
  const intervals: [number, number][] = [];
  const ranges = new Map<string, Network>();
  for (const entry of entries) {
    const network = parseNetwork(entry);
    if (!isPublicNetwork(network.start, network.prefix)) continue;
    const size = 2 ** (32 - network.prefix);
    if (size <= maxExpandedRange) intervals.push([network.start, network.start + size]);
    else ranges.set(`${numberToIpv4(network.start)}/${network.prefix}`, network);
  }

  intervals.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of intervals) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  const ips: string[] = [];
  let ipsTotal = 0;
  for (const [start, end] of merged) {
    ipsTotal += end - start;
    for (let value = start; value < end && ips.length < maxListedAddresses; value++) {
      ips.push(numberToIpv4(value));
    }
  }

  const sortedRanges = [...ranges]
    .sort(([, a], [, b]) => a.start - b.start || a.prefix - b.prefix)
    .map(([network, { prefix }]) => ({ network, size: 2 ** (32 - prefix) }));
  return {
    ips,
    ipsTotal,
    ranges: sortedRanges.slice(0, maxListedNetworks),
    rangesTotal: sortedRanges.length,
  };
}
