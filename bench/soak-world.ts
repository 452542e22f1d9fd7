import type { FixtureZone } from '../fixtures/dns-server.js';
import type { AddressAllocator } from './addresses.js';

/**
 * The names the soak section (8) asks about, and the fixture zones that answer for them: sending
 * domains and DNS pools built on fresh bench addresses (each with PTR and A), hostile domains as
 * docs/checks.md describes them, and domains whose SPF record is as large as DNS carries (the
 * maximum-size results of the memory-bound row).
 */

export const sendersZone = 'senders.bench-fixture.net';
export const poolsZone = 'pools.bench-fixture.net';
export const hostileZone = 'hostile.bench-fixture.net';
export const giantZone = 'giant.bench-fixture.net';
/** Names under it are never answered. */
const droppingZone = `drop.${hostileZone}`;

export interface SoakWorld {
  /** Sending domains, each checked fresh once (then again from the cache). */
  domains: string[];
  /** DNS pools, each discovered once and a few of its addresses checked. */
  pools: string[];
  /** IP addresses, each checked fresh once. */
  addresses: string[];
  /** The hostile domains of docs/checks.md: internal addresses, an MX flood, a giant SPF record. */
  hostile: string[];
  /** Domains whose SPF record authorises 48,000 addresses in 3,000 /28 ranges (about 60 KB). */
  giant: string[];
  zones: FixtureZone[];
}

export interface SoakSizes {
  domains: number;
  pools: number;
  addresses: number;
  giant: number;
}

/** 3,000 `ip4:` terms of /28 ranges in public space: about 60 KB, as large as a TXT answer gets. */
function giantSpf(): string {
  const terms: string[] = [];
  for (let index = 0; index < 3000; index++) {
    terms.push(`ip4:45.${Math.floor(index / 16)}.${index % 16}.${(index % 15) * 16}/28`);
  }
  return `v=spf1 ${terms.join(' ')} -all`;
}

export function buildSoakWorld(allocator: AddressAllocator, sizes: SoakSizes): SoakWorld {
  const senders: FixtureZone['records'] = {};
  const domains = Array.from({ length: sizes.domains }, (_, index) => {
    const domain = `d${index}.${sendersZone}`;
    const [spfAddress, hostAddress] = allocator.take(2) as [string, string];
    senders[domain] = {
      A: [hostAddress],
      MX: [{ exchange: `mx.${domain}`, priority: 10 }],
      TXT: [`v=spf1 ip4:${spfAddress} mx -all`],
    };
    senders[`mx.${domain}`] = { A: [hostAddress] };
    if (index % 2 === 0) senders[`_dmarc.${domain}`] = { TXT: ['v=DMARC1; p=quarantine'] };
    return domain;
  });

  const poolRecords: FixtureZone['records'] = {};
  const pools = Array.from({ length: sizes.pools }, (_, index) => {
    const pool = `p${index}.${poolsZone}`;
    poolRecords[pool] = { A: allocator.take(4) };
    return pool;
  });

  const floodHosts = Array.from({ length: 1260 }, (_, index) => ({
    exchange: `m${index}.${droppingZone}`,
    priority: index,
  }));
  const hostileRecords: FixtureZone['records'] = {
    // docs/checks.md#no-internal-dns-oracle: a domain and MX hosts resolving to internal addresses.
    [`vault.${hostileZone}`]: { A: ['10.20.30.40'], TXT: ['v=spf1 a -all'] },
    [`internal-mx.${hostileZone}`]: {
      MX: [
        { exchange: 'kubernetes.default.svc.cluster.local', priority: 10 },
        { exchange: 'localhost', priority: 20 },
        { exchange: 'metadata.google.internal', priority: 30 },
        { exchange: `loopback.${hostileZone}`, priority: 40 },
      ],
    },
    [`loopback.${hostileZone}`]: { A: ['127.0.0.1', '169.254.169.254'] },
    // Finding 2: 1,260 MX hosts whose look-ups are dropped.
    [`mx-flood.${hostileZone}`]: { MX: floodHosts },
    // Finding 3: one giant SPF record.
    [`spf.${hostileZone}`]: { TXT: [giantSpf()] },
  };

  const spf = giantSpf();
  const giantRecords: FixtureZone['records'] = {};
  const giant = Array.from({ length: sizes.giant }, (_, index) => {
    const domain = `big${index}.${giantZone}`;
    giantRecords[domain] = { TXT: [spf] };
    return domain;
  });

  return {
    domains,
    pools,
    addresses: allocator.take(sizes.addresses),
    hostile: Object.keys(hostileRecords).filter((name) => !name.startsWith('loopback.')),
    giant,
    zones: [
      { origin: sendersZone, records: senders },
      { origin: poolsZone, records: poolRecords },
      { origin: droppingZone, behaviour: 'drop' },
      { origin: hostileZone, records: hostileRecords },
      { origin: giantZone, records: giantRecords },
    ],
  };
}
