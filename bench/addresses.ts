import { reversedOctets } from '../src/reputation/ipv4.js';
import type { FixtureRecords, FixtureZone } from '../test/fixtures/dns-server.js';

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
