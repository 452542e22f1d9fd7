import { type DnsOutcome, type Resolver, recordsOf } from '../../dns/index.js';
import {
  compareIpv4,
  compareIpv6,
  isIpv6,
  isPublicIpv4,
  isPublicIpv6,
  isSpecialUseName,
  parseIpv6,
} from '../../lib/index.js';
import { type NameServerOptions, findAuthoritativeServers } from './authoritative-servers.js';
import {
  canonicalNameOf,
  createCheckDns,
  createDeadline,
  type Deadline,
} from '../lookups/index.js';
import {
  type DiscoveryProgress,
  type PoolStopReason,
  type RoundTally,
  type SaturationRule,
  afterRound,
  noProgress,
  poolStopReason,
} from './pool-saturation.js';
import type { PoolDiscovery } from '../results/index.js';

/**
 * Discovery of the addresses a DNS pool hands out, IPv4 (A) and IPv6 (AAAA). A pool (round robin,
 * often by region) answers each query with a few of its addresses, so the name is asked again and
 * again, bypassing every cache, of the configured resolvers and of the pool zone's own name
 * servers, until new addresses stop turning up.
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
 * 142 queries in the worst of 20,000 simulated runs: 200 leave room for that. The budget is per
 * family (A and AAAA are sampled apart), and a family without records costs one query per source.
 * 4 seconds is what an operator waits for a tool that samples a pool; local answers need far less.
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

export type { PoolDiscovery } from '../results/index.js';

/** IPv4 addresses sorted numerically, then IPv6 ones. */
function ipv4ThenIpv6(addresses: readonly string[]): string[] {
  const ipv6 = addresses.filter(isIpv6).sort(compareIpv6);
  const ipv4 = addresses.filter((address) => !isIpv6(address)).sort(compareIpv4);
  return [...ipv4, ...ipv6];
}

/** A place the pool's A and AAAA records are asked: the configured resolvers, or one authoritative server. */
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
    const dns = createCheckDns(
      resolver,
      deadline,
      families.length * settings.maxQueries + lookupQueries,
    );
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
  const addresses = ipv4ThenIpv6([...publicAddresses].slice(0, settings.maxAddresses));
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

/** The record types a pool is sampled for: its IPv4 and its IPv6 addresses. */
const families = ['A', 'AAAA'] as const;
type Family = (typeof families)[number];

/** One family's sampling: its own progress and stopping rule, in the same rounds as the other. */
interface FamilySample {
  type: Family;
  progress: DiscoveryProgress;
  /** Why this family needs no more rounds; the other may still. */
  done?: PoolStopReason;
  /** Failures in a row per source, for this family's queries. */
  failures: Map<Source, number>;
}

/** What the answers to the pool's A and AAAA queries have shown. */
interface PoolSample {
  /** Every distinct address, public or not. */
  seen: Set<string>;
  /** The public ones, IPv4 as answered and IPv6 in RFC 5952 form, in the order found. */
  publicAddresses: Set<string>;
  /** Both families together: rounds, queries and responses summed. */
  progress: DiscoveryProgress;
  stopReason: PoolStopReason;
}

/** Reasons a family stops for on its own; any other stops the whole discovery. */
const familyReasons = new Set<PoolStopReason>([
  'saturated',
  'no_addresses',
  'sources_failed',
  'query_budget',
]);

/**
 * The discovery's reason once every family has stopped: saturated when each family saturated or
 * has no addresses (and one has some), no addresses when neither has any, else what stopped the
 * family that fell short (its sources failed, or its query budget ran out).
 */
function combinedReason(samples: readonly FamilySample[]): PoolStopReason {
  const reasons = samples.map((sample) => sample.done!);
  if (reasons.every((reason) => reason === 'no_addresses')) return 'no_addresses';
  const short = reasons.find((reason) => reason !== 'saturated' && reason !== 'no_addresses');
  return short ?? 'saturated';
}

function sum(samples: readonly FamilySample[]): DiscoveryProgress {
  return samples.reduce(
    (total, { progress }) => ({
      ...total,
      rounds: Math.max(total.rounds, progress.rounds),
      queries: total.queries + progress.queries,
      responses: total.responses + progress.responses,
      addressesSeen: total.addressesSeen + progress.addressesSeen,
    }),
    noProgress,
  );
}

/**
 * Asks every source once per round for each family still sampling (A and AAAA: each family is
 * sampled and judged saturated on its own, with its own query budget), in parallel, until every
 * family is done, enough public addresses are found or the deadline passes.
 */
async function samplePool(
  resolver: Resolver,
  sources: Source[],
  settings: PoolDiscoveryOptions,
  deadline: Deadline,
): Promise<PoolSample> {
  const seen = new Set<string>();
  const publicAddresses = new Set<string>();
  const samples: FamilySample[] = families.map((type) => ({
    type,
    progress: noProgress,
    failures: new Map(sources.map((source) => [source, 0])),
  }));
  const result = (stopReason: PoolStopReason): PoolSample => ({
    seen,
    publicAddresses,
    progress: sum(samples),
    stopReason,
  });
  for (;;) {
    const asked: { sample: FamilySample; source: Source }[] = [];
    for (const sample of samples.filter((each) => each.done === undefined)) {
      const active = sources.filter(
        (source) => sample.failures.get(source)! < maxConsecutiveFailures,
      );
      const reason = poolStopReason(sample.progress, settings, {
        activeSources: active.length,
        deadlinePassed: deadline.expired,
        publicAddresses: publicAddresses.size,
      });
      if (reason !== undefined && !familyReasons.has(reason)) return result(reason);
      if (reason !== undefined) sample.done = reason;
      else asked.push(...active.map((source) => ({ sample, source })));
    }
    if (asked.length === 0) return result(combinedReason(samples));

    const answers = await Promise.all(
      asked.map(async ({ sample, source }) => ({
        sample,
        source,
        outcome: await resolver.query(source.name, sample.type, {
          bypassCache: true,
          servers: source.server === undefined ? undefined : [source.server],
        }),
      })),
    );
    const rounds = new Map<FamilySample, RoundTally>(
      samples
        .filter((sample) => sample.done === undefined)
        .map((sample) => [sample, { queries: 0, responses: 0, newAddresses: 0, sightings: 0 }]),
    );
    for (const { sample, source, outcome } of answers) {
      const round = rounds.get(sample)!;
      round.queries++;
      if (failed(outcome)) {
        sample.failures.set(source, sample.failures.get(source)! + 1);
        continue;
      }
      sample.failures.set(source, 0);
      source.responded = true;
      round.responses++;
      for (const answered of recordsOf(outcome)) {
        round.sightings++;
        const address = sample.type === 'AAAA' ? canonicalAnswer(answered) : answered;
        if (seen.has(address)) continue;
        seen.add(address);
        round.newAddresses++;
        const isPublic = sample.type === 'AAAA' ? isPublicIpv6(address) : isPublicIpv4(address);
        if (isPublic) publicAddresses.add(address);
      }
    }
    for (const [sample, round] of rounds) sample.progress = afterRound(sample.progress, round);
  }
}

/** An AAAA answer in RFC 5952 form, so one address is counted once however it is written. */
function canonicalAnswer(address: string): string {
  return parseIpv6(address)?.toRFC5952String() ?? address;
}
