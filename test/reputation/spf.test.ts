import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/dns/index.js';
import { expandSpf } from '../../src/reputation/spf.js';
import {
  type FixtureDnsServer,
  type FixtureRecords,
  type FixtureZone,
  startFixtureDnsServer,
} from '../fixtures/dns-server.js';

let server: FixtureDnsServer;
/** Where the query log stood when the current test's zones were served. */
let firstQuery = 0;

beforeAll(async () => {
  server = await startFixtureDnsServer({ zones: [] });
});

afterAll(async () => {
  await server.close();
});

/** Serves `records` in a zone `test` (plus `zones`), and a fresh resolver with an empty cache. */
function serve(records: Record<string, FixtureRecords>, zones: FixtureZone[] = []) {
  server.setZones([{ origin: 'test', records }, ...zones]);
  firstQuery = server.queries.length;
  return createResolver({ servers: [server.address], timeoutMs: 300, retries: 0 });
}

const spf = (record: string, more: FixtureRecords = {}): FixtureRecords => ({
  TXT: [record],
  ...more,
});

/** The names the fixture server was asked since the test's zones were served. */
function askedNames(): string[] {
  return server.queries.slice(firstQuery).map((query) => query.name);
}

async function timed<T>(work: Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work;
  return { result, ms: performance.now() - start };
}

describe('expandSpf', () => {
  it('collects the addresses of an include chain in the order a receiver evaluates them', async () => {
    const resolver = serve({
      'example.test': spf('v=spf1 ip4:192.0.2.1 include:_spf.example.test ip4:192.0.2.3 -all'),
      '_spf.example.test': spf('v=spf1 ip4:198.51.100.0/24 include:esp.test ~all'),
      'esp.test': spf('v=spf1 ip4:203.0.113.7 -all'),
    });
    expect(await expandSpf(resolver, 'Example.test.')).toEqual({
      domain: 'example.test',
      record: 'v=spf1 ip4:192.0.2.1 include:_spf.example.test ip4:192.0.2.3 -all',
      status: 'found',
      ip4: ['192.0.2.1', '198.51.100.0/24', '203.0.113.7', '192.0.2.3'],
      ip6: [],
      lookups: 2,
      voidLookups: 0,
      domains: ['example.test', '_spf.example.test', 'esp.test'],
      notEnumerable: [],
      skipped: [],
      nonPass: [],
    });
  });

  it('follows a redirect when the record has no all', async () => {
    const resolver = serve({
      'example.test': spf('v=spf1 ip4:192.0.2.1 redirect=_spf.other.test'),
      '_spf.other.test': spf('v=spf1 ip4:192.0.2.2 -all'),
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result).toMatchObject({ ip4: ['192.0.2.1', '192.0.2.2'], lookups: 1 });
    expect(result.domains).toEqual(['example.test', '_spf.other.test']);
    expect(result.error).toBeUndefined();
  });

  it('ignores a redirect in a record that has an all, and does not even look it up', async () => {
    const resolver = serve({
      'example.test': spf('v=spf1 ip4:192.0.2.1 redirect=_spf.other.test -all'),
      '_spf.other.test': spf('v=spf1 ip4:192.0.2.2 -all'),
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result).toMatchObject({ ip4: ['192.0.2.1'], lookups: 0, domains: ['example.test'] });
    expect(askedNames()).not.toContain('_spf.other.test');
  });

  it('resolves a and mx terms to addresses, keeping their CIDR suffixes as networks', async () => {
    const resolver = serve({
      'example.test': spf('v=spf1 a a/24 a:host.example.test/28 mx mx:other.test/30//64 -all', {
        A: ['192.0.2.10'],
        MX: [
          { exchange: 'mx2.example.test', priority: 20 },
          { exchange: 'mx1.example.test', priority: 10 },
        ],
      }),
      'host.example.test': { A: ['198.51.100.77'] },
      'mx1.example.test': { A: ['203.0.113.5'] },
      'mx2.example.test': { A: ['203.0.113.6', '203.0.113.7'] },
      'other.test': { MX: [{ exchange: 'mx.other.test', priority: 5 }] },
      'mx.other.test': { A: ['203.0.113.130'] },
    });
    const result = await expandSpf(resolver, 'example.test');
    expect([...result.ip4].sort()).toEqual(
      [
        '192.0.2.10',
        '192.0.2.0/24',
        '198.51.100.64/28',
        '203.0.113.5',
        '203.0.113.6',
        '203.0.113.7',
        '203.0.113.128/30',
      ].sort(),
    );
    expect(result).toMatchObject({ lookups: 5, voidLookups: 0 });
    expect(result.error).toBeUndefined();
  });

  it('keeps ip6 networks apart from the IPv4 senders', async () => {
    const resolver = serve({
      'example.test': spf(
        'v=spf1 ip4:192.0.2.1 ip6:2001:db8::/32 ip6:2001:DB8:0:0:0:0:0:1 include:v6.test -all',
      ),
      'v6.test': spf('v=spf1 ip6:2001:db8:ff:1::/48 -all'),
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result.ip4).toEqual(['192.0.2.1']);
    expect(result.ip6).toEqual(['2001:db8::/32', '2001:db8::1', '2001:db8:ff::/48']);
  });

  it('stops an include loop at once with a permerror saying where, well within the deadline', async () => {
    const resolver = serve({
      'a.test': spf('v=spf1 ip4:192.0.2.1 include:b.test -all'),
      'b.test': spf('v=spf1 ip4:192.0.2.2 include:a.test ip4:192.0.2.3 -all'),
    });
    const { result, ms } = await timed(expandSpf(resolver, 'a.test', { deadlineMs: 3000 }));
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'include loop: a.test -> b.test -> a.test',
      at: 'b.test',
      term: 'include:a.test',
    });
    expect(result.ip4).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(ms).toBeLessThan(1000);
  });

  it('reports a record that redirects to itself as a loop', async () => {
    const resolver = serve({ 'a.test': spf('v=spf1 ip4:192.0.2.1 redirect=A.test') });
    const result = await expandSpf(resolver, 'a.test');
    expect(result.error).toMatchObject({
      kind: 'permerror',
      reason: 'include loop: a.test -> a.test',
      term: 'redirect=A.test',
    });
  });

  it('stops at the eleventh DNS-querying term: addresses before it are kept, those after it are not', async () => {
    const chain: Record<string, FixtureRecords> = {
      'example.test': spf('v=spf1 ip4:192.0.2.100 include:l1.test ip4:192.0.2.200 -all'),
    };
    for (let level = 1; level <= 12; level++) {
      chain[`l${level}.test`] = spf(`v=spf1 ip4:192.0.2.${level} include:l${level + 1}.test -all`);
    }
    chain['l13.test'] = spf('v=spf1 ip4:192.0.2.13 -all');
    const result = await expandSpf(serve(chain), 'example.test');
    expect(result.ip4).toEqual([
      '192.0.2.100',
      ...Array.from({ length: 10 }, (_, index) => `192.0.2.${index + 1}`),
    ]);
    expect(result.lookups).toBe(10);
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'more than 10 DNS-querying terms (include, a, mx, ptr, exists, redirect)',
      at: 'l10.test',
      term: 'include:l11.test',
    });
  });

  it('counts exists, ptr and macro terms against the limit although it cannot follow them', async () => {
    const hosts: Record<string, FixtureRecords> = {};
    for (let host = 1; host <= 8; host++) hosts[`h${host}.test`] = { A: [`198.51.100.${host}`] };
    const terms = Array.from({ length: 8 }, (_, index) => `a:h${index + 1}.test`).join(' ');
    const resolver = serve({
      ...hosts,
      'example.test': spf(`v=spf1 ptr exists:%{i}._spf.test include:%{d}.x.test ${terms} -all`),
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result.ip4).toEqual(Array.from({ length: 7 }, (_, index) => `198.51.100.${index + 1}`));
    expect(result.error).toMatchObject({
      kind: 'permerror',
      at: 'example.test',
      term: 'a:h8.test',
    });
  });

  it('allows two void lookups and makes the third a permerror', async () => {
    const resolver = serve({
      'example.test': spf(
        'v=spf1 a:gone1.test ip4:192.0.2.1 mx:nomx.test ip4:192.0.2.2 a:gone3.test ip4:192.0.2.3 -all',
      ),
      'nomx.test': { A: ['203.0.113.1'] },
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result).toMatchObject({ ip4: ['192.0.2.1', '192.0.2.2'], voidLookups: 3, lookups: 3 });
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'more than 2 lookups answered NXDOMAIN or no records',
      at: 'example.test',
      term: 'a:gone3.test',
    });
  });

  it('skips terms with macros and reports exists and ptr as not enumerable', async () => {
    const resolver = serve({
      'example.test': spf(
        'v=spf1 include:%{d}._spf.test a:%{i}.a.test exists:%{i}._spf.example.test ptr ptr:example.test ip4:192.0.2.1 redirect=%{d}.r.test',
      ),
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result).toMatchObject({ ip4: ['192.0.2.1'], lookups: 6 });
    expect(result.error).toBeUndefined();
    const macro = 'macro: its target depends on the client and sender';
    expect(result.skipped).toEqual([
      { term: 'include:%{d}._spf.test', domain: 'example.test', reason: macro },
      { term: 'a:%{i}.a.test', domain: 'example.test', reason: macro },
      { term: 'redirect=%{d}.r.test', domain: 'example.test', reason: macro },
    ]);
    expect(result.notEnumerable.map((entry) => entry.term)).toEqual([
      'exists:%{i}._spf.example.test',
      'ptr',
      'ptr:example.test',
    ]);
    expect(askedNames().filter((name) => name.includes('%'))).toEqual([]);
  });

  it('reports several SPF records as a permerror and uses none of them', async () => {
    const resolver = serve({
      'example.test': {
        TXT: ['v=spf1 ip4:192.0.2.1 -all', 'verification=1', 'v=spf1 ip4:192.0.2.2 -all'],
      },
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result).toMatchObject({ status: 'multiple', record: null, ip4: [] });
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: '2 SPF records; there must be one',
      at: 'example.test',
      term: null,
    });
  });

  it.each([
    ['has only other TXT records', { 'example.test': { TXT: ['verification=1'] } }],
    ['has no TXT records', { 'example.test': { A: ['192.0.2.1'] } }],
    ['does not exist', {}],
  ])('reports none, without error, for a domain that %s', async (_, records) => {
    const result = await expandSpf(serve(records), 'example.test');
    expect(result).toMatchObject({ status: 'none', record: null, ip4: [], lookups: 0 });
    expect(result.error).toBeUndefined();
  });

  it('makes an include of a domain without SPF record a permerror, and counts a void lookup', async () => {
    const resolver = serve({
      'example.test': spf('v=spf1 ip4:192.0.2.1 include:gone.test ip4:192.0.2.2 -all'),
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result).toMatchObject({ ip4: ['192.0.2.1'], voidLookups: 1 });
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'gone.test has no SPF record',
      at: 'example.test',
      term: 'include:gone.test',
    });
  });

  it('reports a syntax error in an included record at the term, keeping what came before', async () => {
    const resolver = serve({
      'example.test': spf('v=spf1 ip4:192.0.2.1 include:bad.test ip4:192.0.2.2 -all'),
      'bad.test': spf('v=spf1 ip4:192.0.2.3 ip4:192.0.2 -all'),
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result.ip4).toEqual(['192.0.2.1']);
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'syntax error: invalid IPv4 network ":192.0.2"',
      at: 'bad.test',
      term: 'ip4:192.0.2',
    });
  });

  it('reports a syntax error in the domain own record, with the record', async () => {
    const resolver = serve({ 'example.test': spf('v=spf1 ip4:192.0.2.1 foo -all') });
    expect(await expandSpf(resolver, 'example.test')).toMatchObject({
      status: 'found',
      record: 'v=spf1 ip4:192.0.2.1 foo -all',
      ip4: [],
      error: { kind: 'permerror', at: 'example.test', term: 'foo' },
    });
  });

  it('reports a timing-out include as a temperror, well within the deadline', async () => {
    const resolver = serve(
      { 'example.test': spf('v=spf1 ip4:192.0.2.1 include:_spf.slow.test ip4:192.0.2.2 -all') },
      [{ origin: 'slow.test', behaviour: 'drop' }],
    );
    const { result, ms } = await timed(expandSpf(resolver, 'example.test', { deadlineMs: 2000 }));
    expect(result.ip4).toEqual(['192.0.2.1']);
    expect(result.error).toEqual({
      kind: 'temperror',
      reason: '_spf.slow.test TXT: DNS timeout',
      at: 'example.test',
      term: 'include:_spf.slow.test',
    });
    expect(ms).toBeLessThan(1500);
  });

  it('gives up at the deadline on a lookup slower than it', async () => {
    server.setZones([
      {
        origin: 'test',
        records: { 'example.test': spf('v=spf1 ip4:192.0.2.1 include:_spf.slow.test -all') },
      },
      { origin: 'slow.test', latencyMs: 2000, records: { '_spf.slow.test': spf('v=spf1 -all') } },
    ]);
    const patient = createResolver({ servers: [server.address], timeoutMs: 5000, retries: 0 });
    const { result, ms } = await timed(expandSpf(patient, 'example.test', { deadlineMs: 300 }));
    expect(result.ip4).toEqual(['192.0.2.1']);
    expect(result.error).toEqual({
      kind: 'temperror',
      reason: '_spf.slow.test TXT: no answer within the 300 ms deadline',
      at: 'example.test',
      term: 'include:_spf.slow.test',
    });
    expect(ms).toBeLessThan(1000);
  });

  it('reports a SERVFAIL on an address lookup as a temperror', async () => {
    const resolver = serve({ 'example.test': spf('v=spf1 a:host.broken.test -all') }, [
      { origin: 'broken.test', behaviour: 'servfail' },
    ]);
    expect((await expandSpf(resolver, 'example.test')).error).toEqual({
      kind: 'temperror',
      reason: 'host.broken.test A: SERVFAIL',
      at: 'example.test',
      term: 'a:host.broken.test',
    });
  });

  it('reports the domain own record as unavailable when its lookup fails', async () => {
    const resolver = serve({}, [{ origin: 'broken.test', behaviour: 'refused' }]);
    expect(await expandSpf(resolver, 'broken.test')).toMatchObject({
      status: 'unavailable',
      error: { kind: 'temperror', reason: 'broken.test TXT: REFUSED', term: null },
    });
  });

  it('walks -, ~ and ? mechanisms for the limits but takes none of their addresses as senders', async () => {
    const resolver = serve({
      'example.test': spf(
        'v=spf1 -ip4:192.0.2.66 ~include:soft.test ?a:maybe.test ip4:192.0.2.1 -all',
      ),
      'soft.test': spf('v=spf1 ip4:198.51.100.1 a:soft-host.test -all'),
      'soft-host.test': { A: ['198.51.100.2'] },
      'maybe.test': { A: ['203.0.113.1'] },
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result).toMatchObject({ ip4: ['192.0.2.1'], lookups: 3 });
    expect(result.nonPass.map((entry) => entry.term)).toEqual([
      '-ip4:192.0.2.66',
      '~include:soft.test',
      '?a:maybe.test',
    ]);
    expect(result.domains).toEqual(['example.test', 'soft.test']);
  });

  it('takes a pass all as every address, and evaluates nothing after it', async () => {
    const resolver = serve({
      'example.test': spf('v=spf1 ip4:192.0.2.1 include:open.test ip4:192.0.2.2 a:late.test -all'),
      'open.test': spf('v=spf1 +all'),
      'late.test': { A: ['203.0.113.9'] },
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result).toMatchObject({
      ip4: ['192.0.2.1', '0.0.0.0/0'],
      ip6: ['::/0'],
      lookups: 1,
    });
  });

  it('makes an mx term with more than 10 hosts a permerror without looking any of them up', async () => {
    const exchangers = Array.from({ length: 11 }, (_, index) => ({
      exchange: `mx${index}.example.test`,
      priority: index,
    }));
    const resolver = serve({
      'example.test': spf('v=spf1 ip4:192.0.2.1 mx -all', { MX: exchangers }),
    });
    const result = await expandSpf(resolver, 'example.test');
    expect(result.ip4).toEqual(['192.0.2.1']);
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'example.test has 11 MX hosts, over the 10 allowed',
      at: 'example.test',
      term: 'mx',
    });
    expect(askedNames().filter((name) => name.startsWith('mx'))).toEqual([]);
  });

  it('looks up the includes of a record in parallel, each once', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'].map((label) => `${label}.slowish.test`);
    const includes: Record<string, FixtureRecords> = {};
    names.forEach((name, index) => {
      includes[name] = spf(`v=spf1 ip4:198.51.100.${index + 1} -all`);
    });
    const resolver = serve(
      { 'example.test': spf(`v=spf1 ${names.map((name) => `include:${name}`).join(' ')} -all`) },
      [{ origin: 'slowish.test', latencyMs: 150, records: includes }],
    );
    const { result, ms } = await timed(expandSpf(resolver, 'example.test'));
    expect(result.ip4).toHaveLength(5);
    // One after another, the five would take 750 ms.
    expect(ms).toBeLessThan(450);
    expect(
      askedNames()
        .filter((name) => name.endsWith('slowish.test'))
        .sort(),
    ).toEqual(names);
  });
});
