import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/dns/index.js';
import { usableNameServers } from '../../src/reputation/authoritative-servers.js';
import { defaultPoolDiscoveryOptions, discoverPool } from '../../src/reputation/pool-discovery.js';
import {
  type DiscoveryProgress,
  afterRound,
  noProgress,
  poolStopReason,
} from '../../src/reputation/pool-saturation.js';
import {
  type FixtureDnsServer,
  type FixtureRecords,
  startFixtureDnsServer,
} from '../fixtures/dns-server.js';

/** Public unicast addresses (documentation ranges such as 192.0.2.0/24 are not public). */
const poolAddresses = Array.from({ length: 40 }, (_, index) => `45.0.0.${index + 1}`);

/** Serves the zone `pool.test` as the recursive resolver sees it. */
let recursive: FixtureDnsServer;
/** Serves `pool.test` as its own name server, on another port, with the full pool. */
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

/** Serves `records` in `pool.test` from the recursive server, and a resolver with an empty cache. */
function serve(records: Record<string, FixtureRecords>, timeoutMs = 300) {
  recursive.setZones([{ origin: 'pool.test', records }]);
  authoritative.setZones([]);
  return createResolver({ servers: [recursive.address], timeoutMs, retries: 0 });
}

/**
 * The recursive server names ns1.pool.test (127.0.0.1) as the zone's name server and hands out a
 * fixed two of 12 addresses, as a resolver with the answer cached would; the authoritative
 * server draws 3 of all 12 per query.
 */
function serveWithNameServer(extra: Record<string, FixtureRecords> = {}) {
  const resolver = serve({
    'pool.test': { NS: ['ns1.pool.test'] },
    'ns1.pool.test': { A: ['127.0.0.1'] },
    'smtp.pool.test': { A: poolAddresses.slice(0, 2) },
    ...extra,
  });
  authoritative.setZones([
    {
      origin: 'pool.test',
      records: { 'smtp.pool.test': { A: poolAddresses.slice(0, 12), pickA: 3 } },
    },
  ]);
  const asked = authoritative.queries.length;
  return { resolver, authoritativeQueries: () => authoritative.queries.slice(asked) };
}

describe('poolStopReason', () => {
  const rule = { saturationRounds: 5, sightingsPerAddress: 4, maxQueries: 200 };
  const going = { activeSources: 2, deadlinePassed: false };
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
      next: { activeSources: 0, deadlinePassed: false },
      stop: 'sources_failed',
    },
    {
      case: 'the deadline passed',
      at: progress({}),
      next: { activeSources: 2, deadlinePassed: true },
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
    const resolver = serve({ 'smtp.pool.test': { A: poolAddresses, pickA: 4 } });
    const discovery = await discoverPool(resolver, 'smtp.pool.test');
    expect(discovery.addresses.length).toBeGreaterThanOrEqual(38);
    expect(poolAddresses).toEqual(expect.arrayContaining(discovery.addresses));
    expect(discovery.queries).toBeLessThanOrEqual(defaultPoolDiscoveryOptions.maxQueries);
    expect(discovery).toMatchObject({ status: 'ok', exists: true, failedQueries: 0 });
  });

  it('saturates on a small stable pool within saturationRounds + 1 rounds', async () => {
    const resolver = serve({ 'smtp.pool.test': { A: ['45.0.0.30', '45.0.0.4', '45.0.0.200'] } });
    const discovery = await discoverPool(resolver, 'smtp.pool.test');
    expect(discovery).toMatchObject({
      status: 'ok',
      addresses: ['45.0.0.4', '45.0.0.30', '45.0.0.200'],
      saturated: true,
      stopReason: 'saturated',
      sources: { resolver: true, authoritative: [] },
    });
    expect(discovery.rounds).toBeLessThanOrEqual(defaultPoolDiscoveryOptions.saturationRounds + 1);
    expect(discovery.notes).toContain(
      'No usable authoritative name server for smtp.pool.test: asked the configured resolvers only.',
    );
  });

  it('asks the zone’s authoritative name servers found through NS and finds what only they hand out', async () => {
    const { resolver, authoritativeQueries } = serveWithNameServer();
    const discovery = await discoverPool(resolver, 'smtp.pool.test', {
      nameServerPort: authoritative.port,
      allowNonPublicNameServers: true,
    });
    expect(discovery.sources).toEqual({ resolver: true, authoritative: [authoritative.address] });
    const onlyAuthoritative = discovery.addresses.filter(
      (address) => !poolAddresses.slice(0, 2).includes(address),
    );
    expect(onlyAuthoritative.length).toBeGreaterThan(0);
    expect(authoritativeQueries()).toContainEqual({ name: 'smtp.pool.test', type: 'A' });
  });

  it('skips name servers at non-public addresses unless told to allow them', async () => {
    const { resolver, authoritativeQueries } = serveWithNameServer();
    const discovery = await discoverPool(resolver, 'smtp.pool.test', {
      nameServerPort: authoritative.port,
    });
    expect(authoritativeQueries()).toEqual([]);
    expect(discovery).toMatchObject({
      addresses: poolAddresses.slice(0, 2),
      sources: { resolver: true, authoritative: [] },
    });
    expect(discovery.notes[0]).toMatch(
      /^Skipped 1 non-public name server address\(es\) of pool\.test/,
    );
  });

  it('follows a CNAME and asks the authoritative servers about the canonical name', async () => {
    const { resolver, authoritativeQueries } = serveWithNameServer({
      'mail.pool.test': { CNAME: 'smtp.pool.test' },
    });
    const discovery = await discoverPool(resolver, 'mail.pool.test', {
      nameServerPort: authoritative.port,
      allowNonPublicNameServers: true,
    });
    expect(discovery).toMatchObject({
      pool: 'mail.pool.test',
      canonicalName: 'smtp.pool.test',
      sources: { resolver: true, authoritative: [authoritative.address] },
    });
    expect(discovery.addresses).toEqual(expect.arrayContaining(poolAddresses.slice(0, 2)));
    expect(authoritativeQueries().length).toBeGreaterThan(0);
    expect(authoritativeQueries().every((query) => query.name === 'smtp.pool.test')).toBe(true);
  });

  it('reports a name without A records as existing, with nothing found and a note', async () => {
    const resolver = serve({
      'mx-only.pool.test': { MX: [{ exchange: 'mx.pool.test', priority: 10 }] },
    });
    const discovery = await discoverPool(resolver, 'mx-only.pool.test');
    expect(discovery).toMatchObject({
      status: 'ok',
      exists: true,
      addresses: [],
      stopReason: 'no_addresses',
      saturated: false,
      rounds: 1,
    });
    expect(discovery.notes).toContain('mx-only.pool.test exists but has no A records (NODATA).');
  });

  it('reports a name that does not exist', async () => {
    const resolver = serve({});
    const discovery = await discoverPool(resolver, 'missing.pool.test');
    expect(discovery).toMatchObject({
      status: 'ok',
      exists: false,
      addresses: [],
      stopReason: 'no_addresses',
    });
    expect(discovery.notes).toContain('missing.pool.test does not exist (NXDOMAIN).');
  });

  it('leaves out and counts the private and loopback addresses of a pool', async () => {
    const resolver = serve({
      'smtp.pool.test': { A: ['45.0.0.2', '10.0.0.5', '127.0.0.2', '45.0.0.1', '192.168.1.1'] },
    });
    const discovery = await discoverPool(resolver, 'smtp.pool.test');
    expect(discovery).toMatchObject({ addresses: ['45.0.0.1', '45.0.0.2'], excludedNonPublic: 3 });
  });

  it('reports DNS as unavailable by the deadline when the server never answers', async () => {
    const resolver = serve({});
    recursive.setZones([{ origin: 'pool.test', behaviour: 'drop' }]);
    const started = performance.now();
    const discovery = await discoverPool(resolver, 'smtp.pool.test');
    // The deadline's timer and the settling of the round it cuts short may take a moment more.
    expect(performance.now() - started).toBeLessThan(defaultPoolDiscoveryOptions.deadlineMs + 100);
    expect(discovery).toMatchObject({
      status: 'dns_unavailable',
      addresses: [],
      sources: { resolver: false, authoritative: [] },
    });
    // Given up after three timeouts in a row, unless a slow machine reaches the deadline first.
    expect(['sources_failed', 'deadline']).toContain(discovery.stopReason);
    expect(discovery.failedQueries).toBe(discovery.queries);
  });

  it('gives up at the deadline even when a query would wait longer', async () => {
    const resolver = serve({}, 5000);
    recursive.setZones([{ origin: 'pool.test', behaviour: 'drop' }]);
    const started = performance.now();
    const discovery = await discoverPool(resolver, 'smtp.pool.test', { deadlineMs: 400 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(discovery).toMatchObject({ status: 'dns_unavailable', stopReason: 'deadline' });
  });
});
