import type { DnsblZone } from './zones.js';

/**
 * A list that answers for IPv6 addresses has two sides, each proven on its own (docs/ipv6.md):
 * its IPv4 side (or, for a domain list, its only side) and its IPv6 side, asked in the nibble
 * format of RFC 5782 §2.4, possibly under a zone of its own, and proven by its own test entry.
 */

export type ListSide = 'primary' | 'ipv6';

/** RFC 5782 §5: an IPv6 DNSxL lists `::FFFF:7F00:2` and does not list `::FFFF:7F00:1`. */
export const ipv6TestEntries = { listed: '::ffff:7f00:2', notListed: '::ffff:7f00:1' } as const;

export function coversIpv6(zone: DnsblZone): boolean {
  return zone.ipv6 !== undefined;
}

/** The zone a side is asked under (before any Spamhaus DQS rewriting). */
export function sideZone(zone: DnsblZone, side: ListSide): string {
  return side === 'ipv6' ? (zone.ipv6?.zone ?? zone.zone) : zone.zone;
}

/** What a side is called: SEM-BLACK's IPv6 side is SEM-IPV6BL. */
export function sideName(zone: DnsblZone, side: ListSide): string {
  return side === 'ipv6' ? (zone.ipv6?.name ?? zone.name) : zone.name;
}

/** The sides of a list: its primary one, and its IPv6 one where the operator documents it. */
export function sidesOf(zone: DnsblZone): ListSide[] {
  return coversIpv6(zone) ? ['primary', 'ipv6'] : ['primary'];
}

/** How the service keeps a side apart from the other: `zen.spamhaus.org`, `zen.spamhaus.org ipv6`. */
export function sideKey(zone: DnsblZone | string, side: ListSide): string {
  const name = typeof zone === 'string' ? zone : zone.zone;
  return side === 'ipv6' ? `${name} ipv6` : name;
}
