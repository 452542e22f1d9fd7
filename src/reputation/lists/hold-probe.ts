import type { DnsStatus, Resolver } from '../../dns/index.js';
import {
  bigIntToIpv6,
  isPublicIpv4,
  isPublicIpv6,
  reversedNibbles,
  reversedOctets,
} from '../../lib/index.js';
import { queryZone } from './dnsbl.js';
import type { ListKeys } from './list-keys.js';
import type { ListSide } from './list-sides.js';
import { randomHex } from './self-test.js';
import type { DnsblZone } from './zones.js';

/**
 * What brings a list on hold back: an answer to a real look-up, the query a check would send,
 * about a random public address (or name), past every cache. Its test entries are no proof: a
 * caching resolver answers `2.0.0.127.<zone>` from its cache after the list's servers die, and a
 * list that rate-limits the querier may let its test names through while real look-ups go
 * unanswered (docs/verdicts.md, "A silent list").
 */

/** Whether a look-up heard from the list: an answer or a name error, not silence or a failure. */
export function heardFromList(status: DnsStatus): boolean {
  return status === 'answer' || status === 'nxdomain' || status === 'nodata';
}

/** Asks a list side about a random target, as a check asks it, and tells how it answered. */
export async function probeRealLookup(
  resolver: Resolver,
  zone: DnsblZone,
  side: ListSide,
  keys: ListKeys,
): Promise<DnsStatus> {
  const name = `${randomLabel(zone, side)}.${queryZone(zone, keys, side)}`;
  const outcome = await resolver.query(name, 'A', { bypassCache: true });
  return outcome.status;
}

/**
 * The label of a look-up about a random target of the side's kind: a public IPv4 address's
 * reversed octets (RFC 5782 §2.1), a public IPv6 address's reversed nibbles (§2.4), a name (§2.3).
 */
function randomLabel(zone: DnsblZone, side: ListSide): string {
  if (zone.type === 'domain') return `${randomHex(6)}.com`;
  if (side === 'ipv6') {
    for (;;) {
      // 2000::/3, global unicast: the space where checked IPv6 addresses live.
      const value = (BigInt(`0x${randomHex(16)}`) >> 3n) | (1n << 125n);
      const address = bigIntToIpv6(value);
      if (isPublicIpv6(address)) return reversedNibbles(address);
    }
  }
  for (;;) {
    const address = Array.from(crypto.getRandomValues(new Uint8Array(4))).join('.');
    if (isPublicIpv4(address)) return reversedOctets(address);
  }
}
