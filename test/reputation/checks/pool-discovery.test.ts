import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../../src/node/dns/index.js';
import { usableNameServers } from '../../../src/reputation/checks/authoritative-servers.js';
import {
  defaultPoolDiscoveryOptions,
  discoverPool,
} from '../../../src/reputation/checks/pool-discovery.js';
import {
  type DiscoveryProgress,
  afterRound,
  noProgress,
  poolStopReason,
} from '../../../src/reputation/checks/pool-saturation.js';
import {
  type FixtureDnsServer,
  type FixtureRecords,
  startFixtureDnsServer,
} from '../../../fixtures/dns-server.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';

/** Public unicast addresses (documentation ranges such as 192.0.2.0/24 are not public). */
const poolAddresses = Array.from({ length: 40 }, (_, index) => `45.0.0.${index + 1}`);

/**
 * The zone `pool.net` as the recursive resolver sees it, in memory: discovery's rounds, sampling
 * and stop rules are what it makes of answers, not the wire.
 */
let world: MemoryDns;

beforeAll(() => {
  world = memoryWorld();
});

afterAll(() => world.close());

/** Serves `records` in `pool.net`, and a resolver with an empty cache. */
function serve(records: Record<string, FixtureRecords>, timeoutMs = 300) {
  world.setZones([{ origin: 'pool.net', records }]);
  return memoryResolver(world, timeoutMs);
}

describe('poolStopReason', () => {
  const rule = { saturationRounds: 5, sightingsPerAddress: 4, maxQueries: 200, maxAddresses: 32 };
  const going = { activeSources: 2, deadlinePassed: false, publicAddresses: 10 };
  const progress = (changes: Partial<DiscoveryProgress>): DiscoveryProgress => ({
    ...noProgress,
    rounds: 10,
    queries: 20,
    responses: 20,
    addressesSeen: 10,
    ...changes,
  });

  it.each([
    { case: 'nothing asked yet', at: noProgress, next: going, stop: undefined },
    {
      case: 'a new address in the last round',
      at: progress({ roundsSinceNewAddress: 0 }),
      next: going,
      stop: undefined,
    },
    {
      case: 'enough quiet rounds and sightings',
      at: progress({ roundsSinceNewAddress: 5, sightingsSinceNewAddress: 40 }),
      next: going,
      stop: 'saturated',
    },
    {
      case: 'quiet rounds, too few sightings',
      at: progress({ roundsSinceNewAddress: 9, sightingsSinceNewAddress: 39 }),
      next: going,
      stop: undefined,
    },
    {
      case: 'sightings, too few quiet rounds',
      at: progress({ roundsSinceNewAddress: 4, sightingsSinceNewAddress: 400 }),
      next: going,
      stop: undefined,
    },
    {
      case: 'only NXDOMAIN or NODATA responses',
      at: progress({ addressesSeen: 0, responses: 2 }),
      next: going,
      stop: 'no_addresses',
    },
    {
      case: 'no response at all',
      at: progress({ addressesSeen: 0, responses: 0, roundsSinceNewAddress: 0 }),
      next: going,
      stop: undefined,
    },
    {
      case: 'every source given up',
      at: progress({}),
      next: { activeSources: 0, deadlinePassed: false, publicAddresses: 10 },
      stop: 'sources_failed',
    },
    {
      case: 'as many public addresses as one pool check takes',
      at: progress({ addressesSeen: 40 }),
      next: { ...going, publicAddresses: 32 },
      stop: 'address_limit',
    },
    {
      case: 'the deadline passed',
      at: progress({}),
      next: { activeSources: 2, deadlinePassed: true, publicAddresses: 10 },
      stop: 'deadline',
    },
    {
      case: 'the budget holds the next round',
      at: progress({ queries: 198 }),
      next: going,
      stop: undefined,
    },
    {
      case: 'the next round overruns the budget',
      at: progress({ queries: 199 }),
      next: going,
      stop: 'query_budget',
    },
  ])('with $case: $stop', ({ at, next, stop }) => {
    expect(poolStopReason(at, rule, next)).toBe(stop);
  });
});

describe('afterRound', () => {
  const quiet = { ...noProgress, rounds: 3, queries: 6, responses: 6, addressesSeen: 4 };

  it('starts the quiet count over when a round shows a new address', () => {
    const before = { ...quiet, roundsSinceNewAddress: 2, sightingsSinceNewAddress: 8 };
    const after = afterRound(before, { queries: 2, responses: 2, newAddresses: 1, sightings: 8 });
    expect(after).toMatchObject({
      rounds: 4,
      queries: 8,
      addressesSeen: 5,
      roundsSinceNewAddress: 0,
      sightingsSinceNewAddress: 0,
    });
  });

  it('counts a round without new addresses as quiet, with its sightings', () => {
    const after = afterRound(quiet, { queries: 2, responses: 1, newAddresses: 0, sightings: 4 });
    expect(after).toMatchObject({ roundsSinceNewAddress: 1, sightingsSinceNewAddress: 4 });
  });

  it('does not count a round in which every query failed as quiet', () => {
    const after = afterRound(quiet, { queries: 2, responses: 0, newAddresses: 0, sightings: 0 });
    expect(after).toMatchObject({ rounds: 4, queries: 8, roundsSinceNewAddress: 0 });
  });
});

describe('usableNameServers', () => {
  const options = {
    nameServerPort: 53,
    allowNonPublicNameServers: false,
    maxAuthoritativeServers: 2,
  };

  it('keeps distinct public addresses with the port, capped, and counts the non-public ones', () => {
    const addresses = ['10.0.0.1', '45.0.0.1', '45.0.0.1', '127.0.0.1', '45.0.0.2', '45.0.0.3'];
    expect(usableNameServers(addresses, options)).toEqual({
      servers: ['45.0.0.1:53', '45.0.0.2:53'],
      skippedNonPublic: 2,
    });
  });

  it('keeps non-public addresses only when allowed', () => {
    const allowed = { ...options, allowNonPublicNameServers: true, nameServerPort: 5353 };
    expect(usableNameServers(['127.0.0.1'], allowed)).toEqual({
      servers: ['127.0.0.1:5353'],
      skippedNonPublic: 0,
    });
  });
});

describe('discoverPool', () => {
  it('discovers at least 38 of 40 addresses of a pool that answers a random 4 per query', async () => {
    const resolver = serve({ 'smtp.pool.net': { A: poolAddresses, pickA: 4 } });
    const discovery = await discoverPool(resolver, 'smtp.pool.net', { maxAddresses: 256 });
    expect(discovery.addresses.length).toBeGreaterThanOrEqual(38);
    expect(poolAddresses).toEqual(expect.arrayContaining(discovery.addresses));
    // The A budget, and the one AAAA query that found the pool has no IPv6 addresses.
    expect(discovery.queries).toBeLessThanOrEqual(defaultPoolDiscoveryOptions.maxQueries + 1);
    expect(discovery).toMatchObject({ status: 'ok' });
  });

  it('asks AAAA once of a pool without IPv6 addresses, and A until saturated', async () => {
    const before = world.queries.length;
    const resolver = serve({ 'smtp.pool.net': { A: ['45.0.0.30', '45.0.0.4'] } });
    const discovery = await discoverPool(resolver, 'smtp.pool.net');
    const asked = world.queries.slice(before).filter((query) => query.name === 'smtp.pool.net');
    expect(asked.filter((query) => query.type === 'AAAA')).toHaveLength(1);
    expect(asked.filter((query) => query.type === 'A')).toHaveLength(discovery.rounds);
    expect(discovery).toMatchObject({ addresses: ['45.0.0.4', '45.0.0.30'], saturated: true });
  });

  it('samples a dual-stack pool for A and AAAA, each family saturating on its own', async () => {
    const resolver = serve({
      'smtp.pool.net': {
        A: ['45.0.0.30', '45.0.0.4'],
        AAAA: ['2a01:4f8:40::10', '2A01:04F8:0040::0002', '2a01:4f8:40::1'],
      },
    });
    const discovery = await discoverPool(resolver, 'smtp.pool.net');
    expect(discovery).toMatchObject({
      status: 'ok',
      addresses: ['45.0.0.4', '45.0.0.30', '2a01:4f8:40::1', '2a01:4f8:40::2', '2a01:4f8:40::10'],
      saturated: true,
      stopReason: 'saturated',
    });
    expect(discovery.queries).toBe(2 * discovery.rounds);
  });

  it('samples an IPv6-only pool, leaving out its non-public addresses uncounted', async () => {
    const resolver = serve({
      'smtp.pool.net': { AAAA: ['2a01:4f8:40::1', 'fd00::1', '::ffff:10.0.0.1', '2002:a00:1::1'] },
    });
    const discovery = await discoverPool(resolver, 'smtp.pool.net');
    expect(discovery).toMatchObject({ addresses: ['2a01:4f8:40::1'], saturated: true });
  });

  it('saturates on a small stable pool within saturationRounds + 1 rounds', async () => {
    const resolver = serve({ 'smtp.pool.net': { A: ['45.0.0.30', '45.0.0.4', '45.0.0.200'] } });
    const discovery = await discoverPool(resolver, 'smtp.pool.net');
    expect(discovery).toMatchObject({
      status: 'ok',
      addresses: ['45.0.0.4', '45.0.0.30', '45.0.0.200'],
      saturated: true,
      stopReason: 'saturated',
      sources: { resolver: true, authoritative: 0 },
    });
    expect(discovery.rounds).toBeLessThanOrEqual(defaultPoolDiscoveryOptions.saturationRounds + 1);
    expect(discovery.notes).toContain(
      'No public authoritative name server was found: asked the configured resolvers only.',
    );
  });

  it('finds nothing, in the same words, for a name without A records, one that does not exist and one with only internal addresses', async () => {
    const resolver = serve({
      'mx-only.pool.net': { MX: [{ exchange: 'mx.pool.net', priority: 10 }] },
      'inside.pool.net': { A: ['10.0.0.5', '127.0.0.2', '192.168.1.1'] },
    });
    const found = await Promise.all(
      ['mx-only.pool.net', 'missing.pool.net', 'inside.pool.net'].map(async (pool) => {
        const discovery = await discoverPool(resolver, pool);
        const { pool: _pool, rounds: _rounds, queries: _queries, ...rest } = discovery;
        return rest;
      }),
    );
    expect(found[0]).toMatchObject({ status: 'ok', addresses: [] });
    expect(found[1]).toEqual(found[0]);
    // Internal addresses are sampled like any others; only the words must not tell them apart.
    expect({ ...found[2], saturated: false, stopReason: 'no_addresses' }).toEqual(found[0]);
  });

  it('leaves out the private and loopback addresses of a pool, uncounted', async () => {
    const resolver = serve({
      'smtp.pool.net': { A: ['45.0.0.2', '10.0.0.5', '127.0.0.2', '45.0.0.1', '192.168.1.1'] },
    });
    const discovery = await discoverPool(resolver, 'smtp.pool.net');
    expect(discovery.addresses).toEqual(['45.0.0.1', '45.0.0.2']);
    expect(JSON.stringify(discovery)).not.toMatch(/10\.0\.0\.5|127\.0\.0\.2|192\.168/);
    expect(discovery).not.toHaveProperty('excludedNonPublic');
  });

  it('stops at maxAddresses public addresses, so one pool check can take them all', async () => {
    const resolver = serve({ 'smtp.pool.net': { A: poolAddresses, pickA: 4 } });
    const discovery = await discoverPool(resolver, 'smtp.pool.net', { maxAddresses: 8 });
    expect(discovery.addresses).toHaveLength(8);
    expect(discovery).toMatchObject({ stopReason: 'address_limit', saturated: false });
    expect(discovery.notes).toContain('Stopped at 8 addresses, as many as one pool check takes.');
  });

  it('neither shows nor follows an alias into a special-use name', async () => {
    const resolver = serve({});
    world.setZones([
      { origin: 'pool.net', records: { 'mail.pool.net': { CNAME: 'db.corp.internal' } } },
      // The resolver chases the alias itself, as a recursive resolver inside the network would.
      { origin: 'internal', records: { 'db.corp.internal': { A: ['10.0.0.9', '45.0.0.9'] } } },
    ]);
    const before = world.queries.length;
    const discovery = await discoverPool(resolver, 'mail.pool.net');
    expect(discovery).not.toHaveProperty('canonicalName');
    expect(discovery.addresses).toEqual(['45.0.0.9']);
    const asked = world.queries.slice(before);
    expect(asked.filter((query) => query.name.endsWith('.internal'))).toEqual([]);
  });

  it('reports DNS as unavailable by the deadline when the server never answers', async () => {
    const resolver = serve({});
    world.setZones([{ origin: 'pool.net', behaviour: 'drop' }]);
    const started = performance.now();
    const discovery = await discoverPool(resolver, 'smtp.pool.net');
    // The deadline's timer and the settling of the round it cuts short may take a moment more.
    expect(performance.now() - started).toBeLessThan(defaultPoolDiscoveryOptions.deadlineMs + 100);
    expect(discovery).toMatchObject({
      status: 'dns_unavailable',
      addresses: [],
      sources: { resolver: false, authoritative: 0 },
    });
    // Given up after three timeouts in a row, unless a slow machine reaches the deadline first.
    expect(['sources_failed', 'deadline']).toContain(discovery.stopReason);
  });

  it('gives up at the deadline even when a query would wait longer', async () => {
    const resolver = serve({}, 5000);
    world.setZones([{ origin: 'pool.net', behaviour: 'drop' }]);
    const started = performance.now();
    const discovery = await discoverPool(resolver, 'smtp.pool.net', { deadlineMs: 400 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(discovery).toMatchObject({ status: 'dns_unavailable', stopReason: 'deadline' });
  });
});

/**
 * On the wire, where the wire is the point: the recursive resolver, and `pool.net` served as its
 * own name server on another port, which discovery must find through NS and ask at its address.
 */
describe('discoverPool, asking the zone’s own name servers over UDP', () => {
  let recursive: FixtureDnsServer;
  let authoritative: FixtureDnsServer;

  beforeAll(async () => {
    [recursive, authoritative] = await Promise.all([
      startFixtureDnsServer({ zones: [] }),
      startFixtureDnsServer({ zones: [] }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([recursive.close(), authoritative.close()]);
  });

  /**
   * The recursive server names ns1.pool.net (127.0.0.1) as the zone's name server and hands out a
   * fixed two of 12 addresses, as a resolver with the answer cached would; the authoritative
   * server draws 3 of all 12 per query.
   */
  function serveWithNameServer(extra: Record<string, FixtureRecords> = {}) {
    recursive.setZones([
      {
        origin: 'pool.net',
        records: {
          'pool.net': { NS: ['ns1.pool.net'] },
          'ns1.pool.net': { A: ['127.0.0.1'] },
          'smtp.pool.net': { A: poolAddresses.slice(0, 2) },
          ...extra,
        },
      },
    ]);
    authoritative.setZones([
      {
        origin: 'pool.net',
        records: { 'smtp.pool.net': { A: poolAddresses.slice(0, 12), pickA: 3 } },
      },
    ]);
    const resolver = createResolver({ servers: [recursive.address], timeoutMs: 300, retries: 0 });
    const asked = authoritative.queries.length;
    return { resolver, authoritativeQueries: () => authoritative.queries.slice(asked) };
  }

  it('asks the zone’s authoritative name servers found through NS and finds what only they hand out', async () => {
    const { resolver, authoritativeQueries } = serveWithNameServer();
    const discovery = await discoverPool(resolver, 'smtp.pool.net', {
      nameServerPort: authoritative.port,
      allowNonPublicNameServers: true,
    });
    // How many were asked; which of them answered is not said (a port-53 reachability probe).
    expect(discovery.sources).toEqual({ resolver: true, authoritative: 1 });
    expect(JSON.stringify(discovery)).not.toContain(authoritative.address);
    const onlyAuthoritative = discovery.addresses.filter(
      (address) => !poolAddresses.slice(0, 2).includes(address),
    );
    expect(onlyAuthoritative.length).toBeGreaterThan(0);
    expect(authoritativeQueries()).toContainEqual({ name: 'smtp.pool.net', type: 'A' });
  });
  it('skips name servers at non-public addresses unless told to allow them', async () => {
    const { resolver, authoritativeQueries } = serveWithNameServer();
    const discovery = await discoverPool(resolver, 'smtp.pool.net', {
      nameServerPort: authoritative.port,
    });
    expect(authoritativeQueries()).toEqual([]);
    expect(discovery).toMatchObject({
      addresses: poolAddresses.slice(0, 2),
      sources: { resolver: true, authoritative: 0 },
    });
    // Nothing says a name server was left out for pointing into a private network.
    expect(discovery.notes).toEqual([
      'No public authoritative name server was found: asked the configured resolvers only.',
    ]);
  });
  it('follows a CNAME and asks the authoritative servers about the canonical name', async () => {
    const { resolver, authoritativeQueries } = serveWithNameServer({
      'mail.pool.net': { CNAME: 'smtp.pool.net' },
    });
    const discovery = await discoverPool(resolver, 'mail.pool.net', {
      nameServerPort: authoritative.port,
      allowNonPublicNameServers: true,
    });
    expect(discovery).toMatchObject({
      pool: 'mail.pool.net',
      canonicalName: 'smtp.pool.net',
      sources: { resolver: true, authoritative: 1 },
    });
    expect(discovery.addresses).toEqual(expect.arrayContaining(poolAddresses.slice(0, 2)));
    expect(authoritativeQueries().length).toBeGreaterThan(0);
    expect(authoritativeQueries().every((query) => query.name === 'smtp.pool.net')).toBe(true);
  });
});
