import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CacheOptions,
  defaultCacheOptions,
  ttlSecondsFor,
  withCache,
} from '../../src/dns/caching.js';
import { type DnsOutcome, type Resolver } from '../../src/dns/index.js';
import { createResolver } from '../../src/node/dns/index.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../../fixtures/dns-server.js';

const zones: FixtureZone[] = [
  {
    origin: 'example.org',
    records: {
      'mail.example.org': { A: ['192.0.2.10'], TXT: ['v=spf1 -all'] },
      'long.example.org': { A: ['192.0.2.11'] },
      'short.example.org': { A: ['192.0.2.12'] },
      'other.example.org': { A: ['192.0.2.13'] },
      'fresh.example.org': { A: ['192.0.2.14'] },
      'miss.example.org': { TXT: ['no address here'] },
    },
  },
  // A TTL of 0 asks every resolver not to cache at all.
  { origin: 'zero.test', ttl: 0, records: { 'a.zero.test': { A: ['192.0.2.20'] } } },
  {
    origin: 'slow.test',
    latencyMs: 60,
    records: { 'a.slow.test': { A: ['192.0.2.30'] }, 'b.slow.test': { A: ['192.0.2.31'] } },
  },
  { origin: 'servfail.test', behaviour: 'servfail' },
  { origin: 'dropped.test', behaviour: 'drop' },
];

let server: FixtureDnsServer;

beforeAll(async () => {
  server = await startFixtureDnsServer({ zones });
});

afterAll(() => server.close());

function resolverWith(cache: Partial<CacheOptions> = {}, timeoutMs = 1000): Resolver {
  return createResolver({ servers: [server.address], timeoutMs, retries: 0, cache });
}

/** How many questions for `name` (any type, any case) the fixture server has received. */
function asked(name: string, type = 'A'): number {
  return server.queries.filter((q) => q.name.toLowerCase() === name && q.type === type).length;
}

describe('ttlSecondsFor', () => {
  const options: CacheOptions = {
    ...defaultCacheOptions,
    minTtlSeconds: 5,
    maxTtlSeconds: 3600,
    negativeTtlSeconds: 60,
    failureTtlSeconds: 5,
  };
  it.each<[string, DnsOutcome<string>, number]>([
    ['an answer keeps its own TTL', { status: 'answer', records: [], ttl: 300 }, 300],
    ['an answer with TTL 0 is kept the minimum', { status: 'answer', records: [], ttl: 0 }, 5],
    [
      'an answer with a huge TTL is kept the maximum',
      { status: 'answer', records: [], ttl: 604800 },
      3600,
    ],
    ['NXDOMAIN is kept the negative TTL', { status: 'nxdomain' }, 60],
    ['NODATA is kept the negative TTL', { status: 'nodata' }, 60],
    ['SERVFAIL is kept the failure TTL', { status: 'servfail' }, 5],
    ['REFUSED is kept the failure TTL', { status: 'refused' }, 5],
    ['a timeout is never kept', { status: 'timeout' }, 0],
  ])('%s', (_, outcome, seconds) => {
    expect(ttlSecondsFor(outcome, options)).toBe(seconds);
  });
});

describe('the caching resolver over the fixture server', () => {
  it('serves a second query from the cache', async () => {
    const resolver = resolverWith();
    const first = await resolver.query('mail.example.org', 'A');
    const second = await resolver.query('mail.example.org', 'A');
    expect(first).toEqual({ status: 'answer', records: ['192.0.2.10'], ttl: 300 });
    expect(second).toEqual(first);
    expect(asked('mail.example.org')).toBe(1);
  });

  it('compares names case-insensitively and keeps record types apart', async () => {
    const resolver = resolverWith();
    await resolver.query('other.example.org', 'A');
    await resolver.query('OTHER.Example.ORG', 'A');
    expect(asked('other.example.org')).toBe(1);
    await resolver.query('mail.example.org', 'TXT');
    await resolver.query('mail.example.org', 'TXT');
    expect(asked('mail.example.org', 'TXT')).toBe(1);
  });

  it('clamps TTLs between the minimum and the maximum, and keeps negative answers briefly', async () => {
    const resolver = resolverWith({
      minTtlSeconds: 0.3,
      maxTtlSeconds: 0.3,
      negativeTtlSeconds: 0.3,
    });
    const names = ['a.zero.test', 'long.example.org', 'nowhere.example.org', 'miss.example.org'];
    const outcomes = [];
    for (const name of names) {
      outcomes.push(await resolver.query(name, 'A'));
      await resolver.query(name, 'A');
      // TTL 0 is raised to the minimum, TTL 300 and negative answers are served from the cache.
      expect(asked(name), name).toBe(1);
    }
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'answer',
      'answer',
      'nxdomain',
      'nodata',
    ]);
    await sleep(450);
    for (const name of names) {
      await resolver.query(name, 'A');
      // Past the clamped TTL every entry, even the one with TTL 300, is asked again.
      expect(asked(name), name).toBe(2);
    }
  });

  it('keeps SERVFAIL briefly so a failing list is not hammered', async () => {
    const resolver = resolverWith({ failureTtlSeconds: 0.3 });
    expect(await resolver.query('a.servfail.test', 'A')).toEqual({ status: 'servfail' });
    expect(await resolver.query('a.servfail.test', 'A')).toEqual({ status: 'servfail' });
    expect(asked('a.servfail.test')).toBe(1);
    await sleep(400);
    await resolver.query('a.servfail.test', 'A');
    expect(asked('a.servfail.test')).toBe(2);
  });

  it('never caches a timeout', async () => {
    const resolver = resolverWith({}, 200);
    expect(await resolver.query('a.dropped.test', 'A')).toEqual({ status: 'timeout' });
    expect(await resolver.query('a.dropped.test', 'A')).toEqual({ status: 'timeout' });
    expect(asked('a.dropped.test')).toBe(2);
  });

  it('coalesces identical queries in flight into one', async () => {
    const resolver = resolverWith();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        resolver.query(i % 2 ? 'a.slow.test' : 'A.Slow.Test', 'A'),
      ),
    );
    expect(new Set(outcomes.map((outcome) => JSON.stringify(outcome))).size).toBe(1);
    expect(outcomes[0]).toMatchObject({ status: 'answer', records: ['192.0.2.30'] });
    expect(asked('a.slow.test')).toBe(1);
  });

  it('abandons a query when its caller’s signal aborts, answering timeout long before the transport would', async () => {
    const resolver = resolverWith({}, 2000);
    const controller = new AbortController();
    const started = performance.now();
    const outcome = resolver.query('b.dropped.test', 'A', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    expect(await outcome).toEqual({ status: 'timeout' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('asks again for a caller that joined a query whose first caller gave up, instead of passing on a timeout that was not its own', async () => {
    const resolver = resolverWith();
    const controller = new AbortController();
    const first = resolver.query('b.slow.test', 'A', { signal: controller.signal });
    const joined = resolver.query('b.slow.test', 'A');
    setTimeout(() => controller.abort(), 10);
    expect(await joined).toMatchObject({ status: 'answer', records: ['192.0.2.31'] });
    expect(asked('b.slow.test')).toBe(2);
    // Callers of one coalesced query share its answer; the first one's own deadline race is
    // what stops it waiting.
    expect(await first).toEqual(await joined);
    // The timeout was nobody's answer: the answer is what the cache keeps.
    expect(await resolver.query('b.slow.test', 'A')).toMatchObject({ status: 'answer' });
    expect(asked('b.slow.test')).toBe(2);
  });

  it('asks the server every time with bypassCache, even with an answer cached', async () => {
    const resolver = resolverWith();
    await resolver.query('fresh.example.org', 'A');
    await resolver.query('fresh.example.org', 'A', { bypassCache: true });
    await Promise.all([
      resolver.query('fresh.example.org', 'A', { bypassCache: true }),
      resolver.query('fresh.example.org', 'A', { bypassCache: true }),
    ]);
    expect(asked('fresh.example.org')).toBe(4);
  });

  it('keeps answers from different servers apart', async () => {
    const other = await startFixtureDnsServer({
      zones: [{ origin: 'example.org', records: { 'short.example.org': { A: ['192.0.2.99'] } } }],
    });
    try {
      const resolver = resolverWith();
      expect(await resolver.query('short.example.org', 'A')).toMatchObject({
        records: ['192.0.2.12'],
      });
      expect(
        await resolver.query('short.example.org', 'A', { servers: [other.address] }),
      ).toMatchObject({ records: ['192.0.2.99'] });
    } finally {
      await other.close();
    }
  });
});

describe('the cache over a failing resolver', () => {
  it('asks again after a query threw, rather than keeping the failure', async () => {
    let calls = 0;
    const resolver = withCache({
      query: () => {
        calls++;
        return Promise.reject(new Error('bug below'));
      },
    });
    await expect(resolver.query('x.example.org', 'A')).rejects.toThrow('bug below');
    await expect(resolver.query('x.example.org', 'A')).rejects.toThrow('bug below');
    expect(calls).toBe(2);
  });
});

describe('clear', () => {
  it('forgets every answer, and keeps no answer to a query asked before it', async () => {
    const resolver = createResolver({ servers: [server.address], timeoutMs: 1000, retries: 0 });
    await resolver.query('other.example.org', 'A');
    const before = asked('other.example.org');
    // Asked before the clear, answered after it (the zone answers after 60 ms).
    const late = resolver.query('a.slow.test', 'A');
    resolver.clear();
    expect(await late).toMatchObject({ records: ['192.0.2.30'] });
    await resolver.query('other.example.org', 'A');
    expect(asked('other.example.org')).toBe(before + 1);
    const slowBefore = asked('a.slow.test');
    await resolver.query('a.slow.test', 'A');
    expect(asked('a.slow.test')).toBe(slowBefore + 1);
  });
});
