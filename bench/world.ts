import { askableZones, type DnsblZone, loadZoneList } from '../src/reputation/index.js';
import type { Listings } from '../fixtures/dnsbl-world.js';
import { AddressAllocator, ipv6Addresses } from './addresses.js';
import { buildSoakWorld, type SoakWorld } from './soak-world.js';
import { buildMailWorld, type MailWorld } from './mail-world.js';
import type { Settings } from './settings.js';

/**
 * The world the sections measure: the IP zones, addresses for every section (allocated up front
 * so each is fresh where it is used) and the listings the fixture DNS serves for some of them.
 */

const addressCapacity = 70_000;

/** An address of the peer's correctness part: what is planted for it and what that stands for. */
export interface CorrectnessCase {
  listings: Record<string, string[]>;
  about: string;
}

export interface BenchWorld {
  ipZones: DnsblZone[];
  ipZoneNames: string[];
  /** How many addresses were handed out: the fixture serves PTR and A records for each. */
  addressCount: number;
  /** How many IPv6 addresses there are: the fixture serves PTR and AAAA records for each. */
  ipv6AddressCount: number;
  /** The zones asked about IPv6 addresses: the IPv6 zones of the lists that cover IPv6. */
  ipv6ZoneNames: string[];
  sets: {
    latencyWarmup: string[];
    latency: string[];
    latencyListed: string[];
    /** Section 1's IPv6 row: warm-up, measured, and listed ones checked for their listing. */
    latency6Warmup: string[];
    latency6: string[];
    latency6Listed: string[];
    /** Checked once through each transport, UDP and DoH, by the doh section. */
    dohLatency: string[];
    /** Checked while one list is silent: the first few put it on hold, the rest are measured. */
    silentWarmup: string[];
    silent: string[];
    /** Checked while one list answers only its test entries: 20 pass first, the rest are measured. */
    testOnlyWarmup: string[];
    testOnly: string[];
    /** Checked by the share section itself, every other one listed, to warm up card drawing. */
    cardWarmup: string[];
    throughputWarmup: string[];
    throughput: string[][];
    /** Section 2's CPU rows: each fresh service's warm-up, then the measured checks. */
    cpuWarmup: string[][];
    cpuSequential: string[];
    cpuLoaded: string[];
    cpuCatalogue: string[];
    /** Section 14: the service's warm-up, then each round's checks one at a time and 24 at a time. */
    trickleWarmup: string[];
    trickle: { sequential: string[]; loaded: string[] }[];
    /** Checked by both sides of section 3 before its rounds, uncounted (JIT). */
    peerWarmup: string[];
    peer: string[][];
    peerCorrectness: string[];
    memory: string[];
    /** Section 7: each gets a result whose card is drawn in the flood. */
    cardFlood: string[];
  };
  listings: Listings;
  /** The peer addresses listed on three lists. */
  peerListed: string[];
  correctnessCases: Record<string, CorrectnessCase>;
  /** Section 8's names and the zones serving them. */
  soak: SoakWorld;
  /** Section 12's mail domains and the zone serving them. */
  mail: MailWorld;
}

export async function buildWorld(settings: Settings): Promise<BenchWorld> {
  const { slowZone, droppingZone } = settings;
  // The lists the service asks: the bench sets no list key, so keyed lists are never asked.
  const zones = askableZones(await loadZoneList(), {});
  const ipZones = zones.filter((zone) => zone.type === 'ip');
  const allocator = new AddressAllocator(addressCapacity);
  const ipv6 = ipv6Addresses(10 + settings.ipv6LatencySamples + 10);
  const latency6Warmup = ipv6.slice(0, 10);
  const latency6 = ipv6.slice(10, 10 + settings.ipv6LatencySamples);
  const latency6Listed = ipv6.slice(10 + settings.ipv6LatencySamples);
  const sets = {
    latency6Warmup,
    latency6,
    latency6Listed,
    latencyWarmup: allocator.take(10),
    latency: allocator.take(settings.latencySamples),
    latencyListed: allocator.take(20),
    dohLatency: allocator.take(settings.dohSamples),
    silentWarmup: allocator.take(3),
    silent: allocator.take(settings.silentSamples),
    testOnlyWarmup: allocator.take(20),
    testOnly: allocator.take(settings.silentSamples),
    cardWarmup: allocator.take(settings.cardWarmups),
    throughputWarmup: allocator.take(settings.cpuWarmupChecks),
    throughput: Array.from({ length: settings.throughputRounds }, () =>
      allocator.take(settings.throughputPerRound),
    ),
    cpuWarmup: [
      allocator.take(settings.cpuWarmupChecks),
      allocator.take(settings.cpuWarmupChecks),
      allocator.take(settings.cpuWarmupChecks),
    ],
    cpuSequential: allocator.take(settings.cpuSequentialChecks),
    cpuLoaded: allocator.take(settings.cpuLoadedChecks),
    cpuCatalogue: allocator.take(settings.cpuLoadedChecks),
    trickleWarmup: allocator.take(settings.trickleWarmupChecks),
    trickle: Array.from({ length: settings.trickleRounds }, () => ({
      sequential: allocator.take(settings.trickleSequentialChecks),
      loaded: allocator.take(settings.trickleLoadedChecks),
    })),
    peerWarmup: allocator.take(settings.peerWarmupChecks),
    peer: Array.from({ length: settings.peerRounds }, () => allocator.take(settings.peerPerRound)),
    peerCorrectness: allocator.take(12),
    memory: allocator.take(settings.memoryChecks),
    cardFlood: allocator.take(settings.cardFloodCards),
  };
  // Fresh names for the whole soak at its rates, a fifth more for the scheduler's catch-up.
  const soakCount = (rate: number) => Math.ceil(rate * settings.soakSeconds * 1.2);
  const soak = buildSoakWorld(allocator, {
    domains: soakCount(settings.soakRates.domainFresh),
    pools: soakCount(settings.soakRates.poolDiscover),
    addresses: soakCount(settings.soakRates.ipFresh),
    giant: settings.maxResults,
  });
  const mail = buildMailWorld(allocator, settings.mailWarmupChecks + settings.mailSamples);

  const listings: Listings = {};
  const cardWarmupListed = sets.cardWarmup.filter((_, index) => index % 2 === 0);
  for (const address of [...sets.latencyListed, ...cardWarmupListed]) {
    listings[address] = { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] };
  }
  // IPv6 listings on the two lists that cover IPv6 (SEM's under its IPv6 zone).
  for (const address of sets.latency6Listed) {
    listings[address] = {
      'zen.spamhaus.org': ['127.0.0.3'],
      'bl.spameatingmonkey.net': ['127.0.0.2'],
    };
  }
  // Every 20th peer address is listed on three lists (both sides must find all of them).
  const peerListed = sets.peer.flat().filter((_, index) => index % 20 === 7);
  for (const address of peerListed) {
    listings[address] = {
      'zen.spamhaus.org': ['127.0.0.4'],
      'bl.spamcop.net': ['127.0.0.2'],
      'b.barracudacentral.org': ['127.0.0.2'],
    };
  }
  // The correctness set: answers where a bare "any A record is a listing" reading goes wrong.
  const [c0, c1, c2, c3, c4, c5, c6, c7] = sets.peerCorrectness as [string, ...string[]];
  const correctnessCases: Record<string, CorrectnessCase> = {
    [c0]: {
      listings: { 'zen.spamhaus.org': ['127.0.0.2'], [slowZone.zone]: ['127.0.0.2'] },
      about: `listed on zen and on ${slowZone.zone}, which answers after ${slowZone.latencyMs} ms`,
    },
    [c1!]: {
      listings: { 'bl.spamcop.net': ['127.0.0.2'], [droppingZone]: ['127.0.0.3'] },
      about: `listed on spamcop and on ${droppingZone}, which never answers`,
    },
    [c2!]: {
      listings: { 'zen.spamhaus.org': ['127.255.255.254'] },
      about: 'Spamhaus error code 127.255.255.254 (query refused)',
    },
    [c3!]: {
      listings: { 'list.dnswl.org': ['127.0.10.2'] },
      about: 'on the DNSWL allowlist',
    },
    [c4!]: {
      listings: { 'hostkarma.junkemailfilter.com': ['127.0.0.1'] },
      about: 'HostKarma white',
    },
    [c5!]: {
      listings: { 'score.senderscore.com': ['127.0.4.90'] },
      about: 'Sender Score 90',
    },
    [c6!]: {
      listings: { 'bl.spamcop.net': ['127.0.0.1'] },
      about: 'undocumented code 127.0.0.1',
    },
    [c7!]: {
      listings: { 'b.barracudacentral.org': ['127.0.0.2'], 'bl.blocklist.de': ['127.0.0.5'] },
      about: 'listed on barracuda and blocklist.de',
    },
  };
  for (const [address, entry] of Object.entries(correctnessCases)) {
    listings[address] = entry.listings;
  }

  return {
    ipZones,
    ipZoneNames: ipZones.map((zone) => zone.zone),
    ipv6ZoneNames: ipZones.filter((zone) => zone.ipv6).map((zone) => zone.ipv6?.zone ?? zone.zone),
    addressCount: allocator.used,
    ipv6AddressCount: ipv6.length,
    sets,
    listings,
    peerListed,
    correctnessCases,
    soak,
    mail,
  };
}
