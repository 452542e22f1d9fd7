import { type DnsOutcome, type Resolver, recordsOf } from '../dns/index.js';
import { type NameServerOptions, findAuthoritativeServers } from './authoritative-servers.js';
import { canonicalNameOf } from './canonical-name.js';
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

/**
 * Discovery of the addresses a DNS pool hands out. A pool (round robin, often by region) answers
 * each query with a few of its addresses, so the name is asked again and again, bypassing every
 * cache, of the configured resolvers and of the pool zone's own name servers, until new addresses
 * stop turning up.
 */

export type { PoolDiscovery } from './result-schemas.js';

export interface PoolDiscoveryOptions extends SaturationRule, NameServerOptions {
  /** For the whole discovery, finding the name servers included. */
  deadlineMs: number;
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
  nameServerPort: 53,
  allowNonPublicNameServers: false,
  maxAuthoritativeServers: 4,
};

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

const timedOut = { status: 'timeout' } as const;

/** Queries not answered by the deadline count as timeouts; after it, none is sent. */
function boundedBy(resolver: Resolver, deadline: Deadline): Resolver {
  return {
    query: (name, type, options) =>
      deadline.expired
        ? Promise.resolve(timedOut)
        : deadline.race(resolver.query(name, type, options), timedOut),
  };
}

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
    return await discoverWithin(boundedBy(resolver, deadline), pool, settings, deadline);
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
  const canonicalName = await canonicalNameOf(resolver, pool);
  const authoritativeName = canonicalName ?? pool;
  const authoritative = await findAuthoritativeServers(resolver, authoritativeName, settings);
  if (authoritative.skippedNonPublic > 0) {
    notes.push(
      `Skipped ${authoritative.skippedNonPublic} non-public name server address(es) of ${authoritative.zone}: the service does not query internal hosts.`,
    );
  }
  if (authoritative.servers.length === 0) {
    notes.push(
      `No usable authoritative name server for ${authoritativeName}: asked the configured resolvers only.`,
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
  const { seen, publicAddresses, progress } = sample;

  const addresses = [...publicAddresses].sort(compareIpv4);
  const excludedNonPublic = seen.size - publicAddresses.size;
  const exists = !(sample.sawNxdomain && !sample.sawNodata && seen.size === 0);
  const status = progress.responses === 0 ? 'dns_unavailable' : 'ok';
  if (status === 'dns_unavailable') {
    notes.push(`No DNS server responded about ${pool}.`);
  } else if (!exists) {
    notes.push(`${pool} does not exist (NXDOMAIN).`);
  } else if (seen.size === 0) {
    notes.push(`${pool} exists but has no A records (NODATA).`);
  } else if (addresses.length === 0) {
    notes.push(`Every address of ${pool} is non-public; none is listed.`);
  }

  return {
    status,
    pool,
    ...(canonicalName === undefined ? {} : { canonicalName }),
    exists,
    addresses,
    excludedNonPublic,
    rounds: progress.rounds,
    queries: progress.queries,
    failedQueries: sample.failedQueries,
    saturated: sample.stopReason === 'saturated',
    stopReason: sample.stopReason,
    sources: {
      resolver: recursive.responded,
      authoritative: authoritative.servers.filter(
        (_, index) => authoritativeSources[index]?.responded,
      ),
    },
    notes,
  };
}

/** What the answers to the pool's A queries have shown. */
interface PoolSample {
  /** Every distinct address, public or not. */
  seen: Set<string>;
  publicAddresses: Set<string>;
  sawNxdomain: boolean;
  sawNodata: boolean;
  failedQueries: number;
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
    sawNxdomain: false,
    sawNodata: false,
    failedQueries: 0,
    progress: noProgress,
  };
  for (;;) {
    const active = sources.filter((source) => source.consecutiveFailures < maxConsecutiveFailures);
    const stopReason = poolStopReason(sample.progress, settings, {
      activeSources: active.length,
      deadlinePassed: deadline.expired,
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
        sample.failedQueries++;
        source.consecutiveFailures++;
        continue;
      }
      source.consecutiveFailures = 0;
      source.responded = true;
      round.responses++;
      sample.sawNxdomain ||= outcome.status === 'nxdomain';
      sample.sawNodata ||= outcome.status === 'nodata';
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
