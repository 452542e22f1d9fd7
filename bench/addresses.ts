import { reversedNibbles, reversedOctets } from '../src/lib/index.js';
import type { FixtureRecords, FixtureZone } from '../fixtures/dns-server.js';

/**
 * The benchmark's addresses: public IPv4 addresses numbered from 0 (185.1.0.1, 185.1.0.2, ...,
 * 254 per /24, skipping .0 and .255), each with a PTR name whose A record points back, so a check
 * of any of them costs two DNS round trips: the DNSBL fan-out in parallel with PTR then A.
 */

/** Where the PTR names live (a made-up, but not special-use, domain). */
export const hostsZone = 'hosts.bench-fixture.net';
/** 185.1.0.0 - 185.255.255.255: room for 65024 addresses per /16. */
const perSlash16 = 254 * 256;

export function benchAddress(index: number): string {
  const host = (index % 254) + 1;
  const block = Math.floor(index / 254);
  return `185.${1 + Math.floor(block / 256)}.${block % 256}.${host}`;
}

export function hostNameOf(index: number): string {
  return `h${index}.${hostsZone}`;
}

/** Hands out fresh, never-used address indexes, so no section sees another's cached answers. */
export class AddressAllocator {
  #next = 0;
  constructor(readonly capacity: number) {
    if (capacity > perSlash16 * 200) throw new Error('too many addresses');
  }
  take(count: number): string[] {
    if (this.#next + count > this.capacity) {
      throw new Error(`address pool of ${this.capacity} exhausted`);
    }
    const start = this.#next;
    this.#next += count;
    return Array.from({ length: count }, (_, offset) => benchAddress(start + offset));
  }
  get used(): number {
    return this.#next;
  }
}

/** PTR records for the first `count` addresses (in 185.in-addr.arpa) and the A records they name. */
export function reverseDnsZones(count: number, latencyMs?: number): FixtureZone[] {
  const ptr: Record<string, FixtureRecords> = {};
  const forward: Record<string, FixtureRecords> = {};
  for (let index = 0; index < count; index++) {
    const address = benchAddress(index);
    ptr[`${reversedOctets(address)}.in-addr.arpa`] = { PTR: [hostNameOf(index)] };
    forward[hostNameOf(index)] = { A: [address] };
  }
  const zone = (origin: string, records: Record<string, FixtureRecords>): FixtureZone => ({
    origin,
    records,
    ...(latencyMs === undefined ? {} : { latencyMs }),
  });
  return [zone('185.in-addr.arpa', ptr), zone(hostsZone, forward)];
}

/**
 * The benchmark's IPv6 addresses, numbered from 0 under one public /48 (2a0b:4e07:b3::1, ::2,
 * ...): each with a PTR name under ip6.arpa whose AAAA record points back, so an IPv6 check costs
 * the same two round trips as an IPv4 one (the lists that cover IPv6, in parallel with PTR then
 * AAAA).
 */
const ipv6Prefix = '2a0b:4e07:b3';

export function benchAddress6(index: number): string {
  return `${ipv6Prefix}::${(index + 1).toString(16)}`;
}

/** Where the IPv6 addresses' PTR names live: a zone of their own under the hosts zone. */
const ipv6HostsZone = `six.${hostsZone}`;

export function hostNameOf6(index: number): string {
  return `h${index}.${ipv6HostsZone}`;
}

/** The first `count` IPv6 addresses, handed out once each. */
export function ipv6Addresses(count: number): string[] {
  return Array.from({ length: count }, (_, index) => benchAddress6(index));
}

/** PTR records for the first `count` IPv6 addresses (their /48's zone) and the AAAA records they name. */
export function ipv6ReverseDnsZones(count: number, latencyMs?: number): FixtureZone[] {
  const ptr: Record<string, FixtureRecords> = {};
  const forward: Record<string, FixtureRecords> = {};
  for (let index = 0; index < count; index++) {
    const address = benchAddress6(index);
    ptr[`${reversedNibbles(address)}.ip6.arpa`] = { PTR: [hostNameOf6(index)] };
    forward[hostNameOf6(index)] = { AAAA: [address] };
  }
  // The /48's reverse zone: its 12 nibbles, least significant first (RFC 3596 §2.5).
  const nibbles = reversedNibbles(`${ipv6Prefix}::`).split('.').slice(20).join('.');
  const latency = latencyMs === undefined ? {} : { latencyMs };
  return [
    { origin: `${nibbles}.ip6.arpa`, records: ptr, ...latency },
    { origin: ipv6HostsZone, records: forward, ...latency },
  ];
}
