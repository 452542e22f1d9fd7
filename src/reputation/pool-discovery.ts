import { type DnsOutcome, type Resolver, recordsOf } from '../dns/index.js';
import { type NameServerOptions, findAuthoritativeServers } from './authoritative-servers.js';
import { canonicalNameOf } from './canonical-name.js';
import { createCheckDns } from './check-dns.js';
import { createDeadline, type Deadline } from './deadline.js';
import { compareIpv4, isPublicIpv4 } from './ipv4.js';
import {
  type DiscoveryProgress,
  type PoolStopReason,
  type RoundTally,
  type SaturationRule,
  afterRound,
  noProgress,
  poolStopReason,
} from './pool-saturation.js';
import type { PoolDiscovery } from './result-schemas.js';
import { isSpecialUseName } from './targets.js';

/**
 * Discovery of the addresses a DNS pool hands out. A pool (round robin, often by region) answers
 * each query with a few of its addresses, so the name is asked again and again, bypassing every
 * cache, of the configured resolvers and of the pool zone's own name servers, until new addresses
 * stop turning up.
 */

export interface PoolDiscoveryOptions extends SaturationRule, NameServerOptions {
  /** For the whole discovery, finding the name servers included. */
  deadlineMs: number;
  /**
   * Discovery stops once it has found this many public addresses (`POOL_MAX_IPS` in service), so
   * every address it lists can be checked in one pool check, and a self-published "pool" of
   * thousands of addresses yields no more than one check's worth.
   */
  maxAddresses: number;
  /**
   * Whether the pool zone's own name servers may be asked besides the configured resolvers. A
   * DoH transport cannot send a query to a server of its choosing, so over DoH (the edge build)
   * discovery asks the DoH resolvers alone and says so in its notes (docs/edge.md).
   */
  askNameServers: boolean;
}

/**
 * A pool answering 4 of its 40 addresses per query, asked through one resolver, takes about 45
 * rounds to show all 40 and about 40 quiet rounds more to saturate (see `sightingsPerAddress`),
 * 142 queries in the worst of 20,000 simulated runs: 200 leave room for that. 4 seconds is what
 * an operator waits for a tool that samples a pool; local answers need far less.
 */
export const defaultPoolDiscoveryOptions: PoolDiscoveryOptions = {
  saturationRounds: 5,
  sightingsPerAddress: 4,
  maxQueries: 200,
  deadlineMs: 4000,
  maxAddresses: 32,
  nameServerPort: 53,
  allowNonPublicNameServers: false,
  maxAuthoritativeServers: 4,
  askNameServers: true,
};

export type { PoolDiscovery } from './result-schemas.js';

/** A place the pool's A records are asked: the configured resolvers, or one authoritative server. */
interface Source {
  /** `ip:port`; none for the configured resolvers. */
  server?: string;
  /** The pool name, or for authoritative servers its canonical name. */
  name: string;
  consecutiveFailures: number;
  responded: boolean;
}

/** A source failing this many times in a row is no longer asked: each failure can cost a timeout. */
const maxConsecutiveFailures = 3;

/**
 * Queries besides the samples: an alias chain of 8 links, a walk up the name for its zone's NS
 * records, and the addresses of at most 13 name servers.
 */
const lookupQueries = 64;

function failed(outcome: DnsOutcome<unknown>): boolean {
  return (
    outcome.status === 'timeout' || outcome.status === 'servfail' || outcome.status === 'refused'
  );
}

/**
 * Discovers the addresses of the pool `pool` (a host name, lowercase, without the root dot).
 *
 * The configured resolvers are asked `pool` itself and follow its CNAMEs as they do for anyone.
 * Authoritative servers do not chase an alias into other zones, so they are asked the canonical
 * name, and it is the canonical name's zone whose name servers are found through NS.
 *
 * @example
 * const discovery = await discoverPool(resolver, 'smtp.pool.example.net');
 * // { status: 'ok', addresses: ['198.51.100.7', ...], rounds: 31, saturated: true, ... }
 */
export async function discoverPool(
  resolver: Resolver,
  pool: string,
  options: Partial<PoolDiscoveryOptions> = {},
): Promise<PoolDiscovery> {
  const settings = { ...defaultPoolDiscoveryOptions, ...options };
  const deadline = createDeadline(settings.deadlineMs);
  try {
    // Names under special-use suffixes are never asked, the queries are budgeted, and none is
    // sent after the deadline.
    const dns = createCheckDns(resolver, deadline, settings.maxQueries + lookupQueries);
    return await discoverWithin(dns, pool, settings, deadline);
  } finally {
    deadline.clear();
  }
}

async function discoverWithin(
  resolver: Resolver,
  pool: string,
  settings: PoolDiscoveryOptions,
  deadline: Deadline,
): Promise<PoolDiscovery> {
  const notes: string[] = [];
  const alias = await canonicalNameOf(resolver, pool);
  // An alias into a special-use name (`db.corp.internal`) is neither shown nor followed: on the
  // service's network it may exist. The configured resolvers still chase it, and any address
  // they find there that is not public is left out below.
  const canonicalName = alias !== undefined && !isSpecialUseName(alias) ? alias : undefined;
  const authoritativeName = canonicalName ?? pool;
  const authoritative =
    settings.askNameServers && alias === canonicalName
      ? await findAuthoritativeServers(resolver, authoritativeName, settings)
      : { servers: [] };
  if (!settings.askNameServers) {
    notes.push(
      "Asked the configured DoH resolvers only: they cannot forward a query to the pool's own " +
        'name servers, so a pool that rotates many addresses may show fewer of them.',
    );
  } else if (authoritative.servers.length === 0) {
    notes.push(
      'No public authoritative name server was found: asked the configured resolvers only.',
    );
  }

  const recursive: Source = { name: pool, consecutiveFailures: 0, responded: false };
  const authoritativeSources: Source[] = authoritative.servers.map((server) => ({
    server,
    name: authoritativeName,
    consecutiveFailures: 0,
    responded: false,
  }));
  const sample = await samplePool(
    resolver,
    [recursive, ...authoritativeSources],
    settings,
    deadline,
  );
  const { publicAddresses, progress } = sample;
  const addresses = [...publicAddresses].slice(0, settings.maxAddresses).sort(compareIpv4);
  if (sample.stopReason === 'address_limit') {
    notes.push(`Stopped at ${settings.maxAddresses} addresses, as many as one pool check takes.`);
  }
  return {
    status: progress.responses === 0 ? 'dns_unavailable' : 'ok',
    pool,
    ...(canonicalName === undefined ? {} : { canonicalName }),
    addresses,
    rounds: progress.rounds,
    queries: progress.queries,
    saturated: sample.stopReason === 'saturated',
    stopReason: sample.stopReason,
    sources: { resolver: recursive.responded, authoritative: authoritative.servers.length },
    notes,
  };
}

/** What the answers to the pool's A queries have shown. */
interface PoolSample {
  /** Every distinct address, public or not. */
  seen: Set<string>;
  /** The public ones, in the order found. */
  publicAddresses: Set<string>;
  progress: DiscoveryProgress;
  stopReason: PoolStopReason;
}

/** Asks every source once per round, in parallel, until the stopping rule says enough. */
async function samplePool(
  resolver: Resolver,
  sources: Source[],
  settings: PoolDiscoveryOptions,
  deadline: Deadline,
): Promise<PoolSample> {
  const sample: Omit<PoolSample, 'stopReason'> = {
    seen: new Set(),
    publicAddresses: new Set(),
    progress: noProgress,
  };
  for (;;) {
    const active = sources.filter((source) => source.consecutiveFailures < maxConsecutiveFailures);
    const stopReason = poolStopReason(sample.progress, settings, {
      activeSources: active.length,
      deadlinePassed: deadline.expired,
      publicAddresses: sample.publicAddresses.size,
    });
    if (stopReason) return { ...sample, stopReason };

    const answers = await Promise.all(
      active.map(async (source) => ({
        source,
        outcome: await resolver.query(source.name, 'A', {
          bypassCache: true,
          servers: source.server === undefined ? undefined : [source.server],
        }),
      })),
    );
    const round: RoundTally = {
      queries: active.length,
      responses: 0,
      newAddresses: 0,
      sightings: 0,
    };
    for (const { source, outcome } of answers) {
      if (failed(outcome)) {
        source.consecutiveFailures++;
        continue;
      }
      source.consecutiveFailures = 0;
      source.responded = true;
      round.responses++;
      for (const address of recordsOf(outcome)) {
        round.sightings++;
        if (sample.seen.has(address)) continue;
        sample.seen.add(address);
        round.newAddresses++;
        if (isPublicIpv4(address)) sample.publicAddresses.add(address);
      }
    }
    sample.progress = afterRound(sample.progress, round);
  }
}
