import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandSpf } from '../../../src/reputation/spf/spf.js';
import type { FixtureRecords, FixtureZone } from '../../../fixtures/dns-server.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';

let world: MemoryDns;
/** Where the query log stood when the current test's zones were served. */
let firstQuery = 0;

beforeAll(async () => {
  world = memoryWorld();
});

afterAll(async () => {
  await world.close();
});

/** Serves `records` in a zone `test` (plus `zones`), and a fresh resolver with an empty cache. */
function serve(records: Record<string, FixtureRecords>, zones: FixtureZone[] = []) {
  world.setZones([{ origin: 'net', records }, ...zones]);
  firstQuery = world.queries.length;
  return memoryResolver(world, 300);
}

const spf = (record: string, more: FixtureRecords = {}): FixtureRecords => ({
  TXT: [record],
  ...more,
});

/** The names the fixture world was asked since the test's zones were served. */
function askedNames(): string[] {
  return world.queries.slice(firstQuery).map((query) => query.name);
}

async function timed<T>(work: Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work;
  return { result, ms: performance.now() - start };
}

describe('expandSpf', () => {
  it('collects the addresses of an include chain in the order a receiver evaluates them', async () => {
    const resolver = serve({
      'example.net': spf('v=spf1 ip4:192.0.3.1 include:_spf.example.net ip4:192.0.3.3 -all'),
      '_spf.example.net': spf('v=spf1 ip4:198.51.101.0/24 include:esp.net ~all'),
      'esp.net': spf('v=spf1 ip4:203.0.114.7 -all'),
    });
    expect(await expandSpf(resolver, 'Example.net.')).toEqual({
      domain: 'example.net',
      record: 'v=spf1 ip4:192.0.3.1 include:_spf.example.net ip4:192.0.3.3 -all',
      status: 'found',
      ip4: ['192.0.3.1', '198.51.101.0/24', '203.0.114.7', '192.0.3.3'],
      ip6: [],
      lookups: 2,
      voidLookups: 0,
      domains: ['example.net', '_spf.example.net', 'esp.net'],
      notEnumerable: [],
      skipped: [],
      nonPass: [],
    });
  });

  it('follows a redirect when the record has no all', async () => {
    const resolver = serve({
      'example.net': spf('v=spf1 ip4:192.0.3.1 redirect=_spf.other.net'),
      '_spf.other.net': spf('v=spf1 ip4:192.0.3.2 -all'),
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({ ip4: ['192.0.3.1', '192.0.3.2'], lookups: 1 });
    expect(result.domains).toEqual(['example.net', '_spf.other.net']);
    expect(result.error).toBeUndefined();
  });

  it('ignores a redirect in a record that has an all, and does not even look it up', async () => {
    const resolver = serve({
      'example.net': spf('v=spf1 ip4:192.0.3.1 redirect=_spf.other.net -all'),
      '_spf.other.net': spf('v=spf1 ip4:192.0.3.2 -all'),
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({ ip4: ['192.0.3.1'], lookups: 0, domains: ['example.net'] });
    expect(askedNames()).not.toContain('_spf.other.net');
  });

  it('resolves a and mx terms to addresses, keeping their CIDR suffixes as networks', async () => {
    const resolver = serve({
      'example.net': spf('v=spf1 a a/24 a:host.example.net/28 mx mx:other.net/30//64 -all', {
        A: ['192.0.3.10'],
        MX: [
          { exchange: 'mx2.example.net', priority: 20 },
          { exchange: 'mx1.example.net', priority: 10 },
        ],
      }),
      'host.example.net': { A: ['198.51.101.77'] },
      'mx1.example.net': { A: ['203.0.114.5'] },
      'mx2.example.net': { A: ['203.0.114.6', '203.0.114.7'] },
      'other.net': { MX: [{ exchange: 'mx.other.net', priority: 5 }] },
      'mx.other.net': { A: ['203.0.114.130'] },
    });
    const result = await expandSpf(resolver, 'example.net');
    expect([...result.ip4].sort()).toEqual(
      [
        '192.0.3.10',
        '192.0.3.0/24',
        '198.51.101.64/28',
        '203.0.114.5',
        '203.0.114.6',
        '203.0.114.7',
        '203.0.114.128/30',
      ].sort(),
    );
    expect(result).toMatchObject({ lookups: 5, voidLookups: 0 });
    expect(result.error).toBeUndefined();
  });

  it('keeps ip6 networks apart from the IPv4 senders', async () => {
    const resolver = serve({
      'example.net': spf(
        'v=spf1 ip4:192.0.3.1 ip6:2001:db8::/32 ip6:2001:DB8:0:0:0:0:0:1 include:v6.net -all',
      ),
      'v6.net': spf('v=spf1 ip6:2001:db8:ff:1::/48 -all'),
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result.ip4).toEqual(['192.0.3.1']);
    expect(result.ip6).toEqual(['2001:db8::/32', '2001:db8::1', '2001:db8:ff::/48']);
  });

  it('stops an include loop at once with a permerror saying where, well within the deadline', async () => {
    const resolver = serve({
      'a.net': spf('v=spf1 ip4:192.0.3.1 include:b.net -all'),
      'b.net': spf('v=spf1 ip4:192.0.3.2 include:a.net ip4:192.0.3.3 -all'),
    });
    const { result, ms } = await timed(expandSpf(resolver, 'a.net', { deadlineMs: 3000 }));
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'include loop: a.net -> b.net -> a.net',
      at: 'b.net',
      term: 'include:a.net',
    });
    expect(result.ip4).toEqual(['192.0.3.1', '192.0.3.2']);
    expect(ms).toBeLessThan(1000);
  });

  it('reports a record that redirects to itself as a loop', async () => {
    const resolver = serve({ 'a.net': spf('v=spf1 ip4:192.0.3.1 redirect=A.net') });
    const result = await expandSpf(resolver, 'a.net');
    expect(result.error).toMatchObject({
      kind: 'permerror',
      reason: 'include loop: a.net -> a.net',
      term: 'redirect=A.net',
    });
  });

  it('stops at the eleventh DNS-querying term: addresses before it are kept, those after it are not', async () => {
    const chain: Record<string, FixtureRecords> = {
      'example.net': spf('v=spf1 ip4:192.0.3.100 include:l1.net ip4:192.0.3.200 -all'),
    };
    for (let level = 1; level <= 12; level++) {
      chain[`l${level}.net`] = spf(`v=spf1 ip4:192.0.3.${level} include:l${level + 1}.net -all`);
    }
    chain['l13.net'] = spf('v=spf1 ip4:192.0.3.13 -all');
    const result = await expandSpf(serve(chain), 'example.net');
    expect(result.ip4).toEqual([
      '192.0.3.100',
      ...Array.from({ length: 10 }, (_, index) => `192.0.3.${index + 1}`),
    ]);
    expect(result.lookups).toBe(10);
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'more than 10 DNS-querying terms (include, a, mx, ptr, exists, redirect)',
      at: 'l10.net',
      term: 'include:l11.net',
    });
  });

  it('counts exists, ptr and macro terms against the limit although it cannot follow them', async () => {
    const hosts: Record<string, FixtureRecords> = {};
    for (let host = 1; host <= 8; host++) hosts[`h${host}.net`] = { A: [`198.51.101.${host}`] };
    const terms = Array.from({ length: 8 }, (_, index) => `a:h${index + 1}.net`).join(' ');
    const resolver = serve({
      ...hosts,
      'example.net': spf(`v=spf1 ptr exists:%{i}._spf.net include:%{d}.x.net ${terms} -all`),
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result.ip4).toEqual(Array.from({ length: 7 }, (_, index) => `198.51.101.${index + 1}`));
    expect(result.error).toMatchObject({
      kind: 'permerror',
      at: 'example.net',
      term: 'a:h8.net',
    });
  });

  it('allows two void lookups and makes the third a permerror', async () => {
    const resolver = serve({
      'example.net': spf(
        'v=spf1 a:gone1.net ip4:192.0.3.1 mx:nomx.net ip4:192.0.3.2 a:gone3.net ip4:192.0.3.3 -all',
      ),
      'nomx.net': { A: ['203.0.114.1'] },
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({ ip4: ['192.0.3.1', '192.0.3.2'], voidLookups: 3, lookups: 3 });
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'more than 2 lookups answered NXDOMAIN or no records',
      at: 'example.net',
      term: 'a:gone3.net',
    });
  });

  it('skips terms with macros and reports exists and ptr as not enumerable', async () => {
    const resolver = serve({
      'example.net': spf(
        'v=spf1 include:%{d}._spf.net a:%{i}.a.net exists:%{i}._spf.example.net ptr ptr:example.net ip4:192.0.3.1 redirect=%{d}.r.net',
      ),
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({ ip4: ['192.0.3.1'], lookups: 6 });
    expect(result.error).toBeUndefined();
    const macro = 'macro: its target depends on the client and sender';
    expect(result.skipped).toEqual([
      { term: 'include:%{d}._spf.net', domain: 'example.net', reason: macro },
      { term: 'a:%{i}.a.net', domain: 'example.net', reason: macro },
      { term: 'redirect=%{d}.r.net', domain: 'example.net', reason: macro },
    ]);
    expect(result.notEnumerable.map((entry) => entry.term)).toEqual([
      'exists:%{i}._spf.example.net',
      'ptr',
      'ptr:example.net',
    ]);
    expect(askedNames().filter((name) => name.includes('%'))).toEqual([]);
  });

  it('reports several SPF records as a permerror and uses none of them', async () => {
    const resolver = serve({
      'example.net': {
        TXT: ['v=spf1 ip4:192.0.3.1 -all', 'verification=1', 'v=spf1 ip4:192.0.3.2 -all'],
      },
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({ status: 'multiple', record: null, ip4: [] });
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: '2 SPF records; there must be one',
      at: 'example.net',
      term: null,
    });
  });

  it.each([
    ['has only other TXT records', { 'example.net': { TXT: ['verification=1'] } }],
    ['has no TXT records', { 'example.net': { A: ['192.0.3.1'] } }],
    ['does not exist', {}],
  ])('reports none, without error, for a domain that %s', async (_, records) => {
    const result = await expandSpf(serve(records), 'example.net');
    expect(result).toMatchObject({ status: 'none', record: null, ip4: [], lookups: 0 });
    expect(result.error).toBeUndefined();
  });

  it('makes an include of a domain without SPF record a permerror, and counts a void lookup', async () => {
    const resolver = serve({
      'example.net': spf('v=spf1 ip4:192.0.3.1 include:gone.net ip4:192.0.3.2 -all'),
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({ ip4: ['192.0.3.1'], voidLookups: 1 });
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'gone.net has no SPF record',
      at: 'example.net',
      term: 'include:gone.net',
    });
  });

  it('reports a syntax error in an included record at the term, keeping what came before', async () => {
    const resolver = serve({
      'example.net': spf('v=spf1 ip4:192.0.3.1 include:bad.net ip4:192.0.3.2 -all'),
      'bad.net': spf('v=spf1 ip4:192.0.3.3 ip4:192.0.2 -all'),
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result.ip4).toEqual(['192.0.3.1']);
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'syntax error: invalid IPv4 network ":192.0.2"',
      at: 'bad.net',
      term: 'ip4:192.0.2',
    });
  });

  it('reports a syntax error in the domain own record, with the record', async () => {
    const resolver = serve({ 'example.net': spf('v=spf1 ip4:192.0.3.1 foo -all') });
    expect(await expandSpf(resolver, 'example.net')).toMatchObject({
      status: 'found',
      record: 'v=spf1 ip4:192.0.3.1 foo -all',
      ip4: [],
      error: { kind: 'permerror', at: 'example.net', term: 'foo' },
    });
  });

  it('reports a timing-out include as a temperror, well within the deadline', async () => {
    const resolver = serve(
      { 'example.net': spf('v=spf1 ip4:192.0.3.1 include:_spf.slow.net ip4:192.0.3.2 -all') },
      [{ origin: 'slow.net', behaviour: 'drop' }],
    );
    const { result, ms } = await timed(expandSpf(resolver, 'example.net', { deadlineMs: 2000 }));
    expect(result.ip4).toEqual(['192.0.3.1']);
    expect(result.error).toEqual({
      kind: 'temperror',
      reason: '_spf.slow.net TXT: DNS timeout',
      at: 'example.net',
      term: 'include:_spf.slow.net',
    });
    expect(ms).toBeLessThan(1500);
  });

  it('gives up at the deadline on a lookup slower than it', async () => {
    world.setZones([
      {
        origin: 'net',
        records: { 'example.net': spf('v=spf1 ip4:192.0.3.1 include:_spf.slow.net -all') },
      },
      { origin: 'slow.net', latencyMs: 2000, records: { '_spf.slow.net': spf('v=spf1 -all') } },
    ]);
    const patient = memoryResolver(world, 5000);
    const { result, ms } = await timed(expandSpf(patient, 'example.net', { deadlineMs: 300 }));
    expect(result.ip4).toEqual(['192.0.3.1']);
    expect(result.error).toEqual({
      kind: 'temperror',
      reason: '_spf.slow.net TXT: no answer within the 300 ms deadline',
      at: 'example.net',
      term: 'include:_spf.slow.net',
    });
    expect(ms).toBeLessThan(1000);
  });

  it('reports a SERVFAIL on an address lookup as a temperror', async () => {
    const resolver = serve({ 'example.net': spf('v=spf1 a:host.broken.net -all') }, [
      { origin: 'broken.net', behaviour: 'servfail' },
    ]);
    expect((await expandSpf(resolver, 'example.net')).error).toEqual({
      kind: 'temperror',
      reason: 'host.broken.net A: SERVFAIL',
      at: 'example.net',
      term: 'a:host.broken.net',
    });
  });

  it('reports the domain own record as unavailable when its lookup fails', async () => {
    const resolver = serve({}, [{ origin: 'broken.net', behaviour: 'refused' }]);
    expect(await expandSpf(resolver, 'broken.net')).toMatchObject({
      status: 'unavailable',
      error: { kind: 'temperror', reason: 'broken.net TXT: REFUSED', term: null },
    });
  });

  it('walks -, ~ and ? mechanisms for the limits but takes none of their addresses as senders', async () => {
    const resolver = serve({
      'example.net': spf(
        'v=spf1 -ip4:192.0.3.66 ~include:soft.net ?a:maybe.net ip4:192.0.3.1 -all',
      ),
      'soft.net': spf('v=spf1 ip4:198.51.101.1 a:soft-host.net -all'),
      'soft-host.net': { A: ['198.51.101.2'] },
      'maybe.net': { A: ['203.0.114.1'] },
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({ ip4: ['192.0.3.1'], lookups: 3 });
    expect(result.nonPass.map((entry) => entry.term)).toEqual([
      '-ip4:192.0.3.66',
      '~include:soft.net',
      '?a:maybe.net',
    ]);
    expect(result.domains).toEqual(['example.net', 'soft.net']);
  });

  it('takes a pass all as every address, and evaluates nothing after it', async () => {
    const resolver = serve({
      'example.net': spf('v=spf1 ip4:192.0.3.1 include:open.net ip4:192.0.3.2 a:late.net -all'),
      'open.net': spf('v=spf1 +all'),
      'late.net': { A: ['203.0.114.9'] },
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({
      ip4: ['192.0.3.1', '0.0.0.0/0'],
      ip6: ['::/0'],
      lookups: 1,
    });
  });

  it('makes an mx term with more than 10 hosts a permerror without looking any of them up', async () => {
    const exchangers = Array.from({ length: 11 }, (_, index) => ({
      exchange: `mx${index}.example.net`,
      priority: index,
    }));
    const resolver = serve({
      'example.net': spf('v=spf1 ip4:192.0.3.1 mx -all', { MX: exchangers }),
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result.ip4).toEqual(['192.0.3.1']);
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'example.net has 11 MX hosts, over the 10 allowed',
      at: 'example.net',
      term: 'mx',
    });
    expect(askedNames().filter((name) => name.startsWith('mx'))).toEqual([]);
  });

  it('looks up the includes of a record in parallel, each once', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'].map((label) => `${label}.slowish.net`);
    const includes: Record<string, FixtureRecords> = {};
    names.forEach((name, index) => {
      includes[name] = spf(`v=spf1 ip4:198.51.101.${index + 1} -all`);
    });
    const resolver = serve(
      { 'example.net': spf(`v=spf1 ${names.map((name) => `include:${name}`).join(' ')} -all`) },
      [{ origin: 'slowish.net', latencyMs: 150, records: includes }],
    );
    const { result, ms } = await timed(expandSpf(resolver, 'example.net'));
    expect(result.ip4).toHaveLength(5);
    // One after another, the five would take 750 ms.
    expect(ms).toBeLessThan(450);
    expect(
      askedNames()
        .filter((name) => name.endsWith('slowish.net'))
        .sort(),
    ).toEqual(names);
  });

  it('never looks up an include, a, mx or redirect target under a special-use suffix, and lists it as skipped', async () => {
    const resolver = serve(
      {
        'example.net': spf(
          'v=spf1 ip4:192.0.3.1 include:spf.corp.internal a:vault.local mx:cluster.local' +
            ' redirect=relay.localhost',
        ),
      },
      // Were they asked, these would answer.
      [
        { origin: 'internal', records: { 'spf.corp.internal': spf('v=spf1 ip4:10.1.2.3 -all') } },
        { origin: 'local', records: { 'vault.local': { A: ['10.20.30.40'] } } },
      ],
    );
    const result = await expandSpf(resolver, 'example.net');
    const reason = 'special-use name: not looked up';
    expect(result).toMatchObject({
      ip4: ['192.0.3.1'],
      lookups: 4,
      voidLookups: 0,
      skipped: [
        { term: 'include:spf.corp.internal', domain: 'example.net', reason },
        { term: 'a:vault.local', domain: 'example.net', reason },
        { term: 'mx:cluster.local', domain: 'example.net', reason },
        { term: 'redirect=relay.localhost', domain: 'example.net', reason },
      ],
    });
    expect(result.error).toBeUndefined();
    expect(askedNames()).toEqual(['example.net']);
  });

  it('takes only the public addresses of a and mx targets, and reads a target with none as a void lookup', async () => {
    const resolver = serve({
      'example.net': spf(
        'v=spf1 a:inside.example.net a:mixed.example.net mx:mail.example.net -all',
      ),
      // Split-horizon data: names in a public zone that point into a private network.
      'inside.example.net': { A: ['10.20.30.40'] },
      'mixed.example.net': { A: ['10.0.0.1', '192.0.3.9'] },
      'mail.example.net': {
        MX: [
          { exchange: 'mx1.example.net', priority: 10 },
          { exchange: 'kubernetes.default.svc.cluster.local', priority: 20 },
        ],
      },
      'mx1.example.net': { A: ['127.0.0.1', '169.254.169.254'] },
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result.ip4).toEqual(['192.0.3.9']);
    // inside.example.net reads exactly as a name without addresses would.
    expect(result).toMatchObject({ lookups: 3, voidLookups: 1 });
    expect(result.error).toBeUndefined();
    expect(askedNames()).not.toContain('kubernetes.default.svc.cluster.local');
  });
});

describe('exists (RFC 7208 §5.7)', () => {
  it('resolves a target without a macro: one with an A record authorises every address, as +all does', async () => {
    const resolver = serve({
      'example.net': spf('v=spf1 ip4:192.0.3.1 exists:allow.example.net ip4:192.0.3.2 -all'),
      'allow.example.net': { A: ['127.0.0.2'] },
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({
      ip4: ['192.0.3.1', '0.0.0.0/0'],
      ip6: ['::/0'],
      lookups: 1,
      voidLookups: 0,
      notEnumerable: [],
    });
    expect(result.error).toBeUndefined();
    expect(askedNames()).toContain('allow.example.net');
  });

  it('ends the evaluation for every address at a matching exists that is not pass', async () => {
    const resolver = serve({
      'example.net': spf('v=spf1 ip4:192.0.3.1 -exists:blocked.example.net ip4:192.0.3.2 -all'),
      'blocked.example.net': { A: ['127.0.0.2'] },
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result.ip4).toEqual(['192.0.3.1']);
  });

  it('counts a target with no record as a void lookup, and past two of them a permerror (§4.6.4)', async () => {
    const resolver = serve({
      'example.net': spf(
        'v=spf1 exists:gone1.example.net exists:gone2.example.net exists:gone3.example.net ip4:192.0.3.1 -all',
      ),
    });
    const result = await expandSpf(resolver, 'example.net');
    expect(result).toMatchObject({ lookups: 3, voidLookups: 3 });
    expect(result.error).toEqual({
      kind: 'permerror',
      reason: 'more than 2 lookups answered NXDOMAIN or no records',
      at: 'example.net',
      term: 'exists:gone3.example.net',
    });
  });

  it('reads a target whose lookup fails as a temperror (§5)', async () => {
    const resolver = serve(
      { 'example.net': spf('v=spf1 exists:x.broken.org ip4:192.0.3.1 -all') },
      [{ origin: 'broken.org', behaviour: 'servfail', records: {} }],
    );
    const result = await expandSpf(resolver, 'example.net');
    expect(result.error).toMatchObject({ kind: 'temperror', term: 'exists:x.broken.org' });
  });
});
