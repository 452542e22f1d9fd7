import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Resolver } from '../../../src/dns/index.js';
import { diagnose } from '../../../src/reputation/lists/resolver-diagnosis.js';
import { queryZone } from '../../../src/reputation/lists/dnsbl.js';
import type { ListKeys } from '../../../src/reputation/lists/list-keys.js';
import { type ListSide, sideZone, sidesOf } from '../../../src/reputation/lists/list-sides.js';
import { reversedOctets } from '../../../src/lib/ipv4.js';
import { reversedNibbles } from '../../../src/lib/ipv6.js';
import {
  positiveEntry,
  selfTestZones,
  type SelfTestRun,
} from '../../../src/reputation/lists/self-test.js';
import { type DnsblZone, loadZoneList } from '../../../src/reputation/lists/zones.js';
import type { FixtureRecords, FixtureZone } from '../../../fixtures/dns-server.js';
import { dnsblWorld, type Listings } from '../../../fixtures/dnsbl-world.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';
import { createResolver } from '../../../src/node/dns/index.js';

const zones = await loadZoneList();

let dns: MemoryDns;

beforeAll(async () => {
  dns = memoryWorld(dnsblWorld(zones, {}));
});

afterAll(() => dns.close());

interface World {
  listings?: Listings;
  wildcard?: Record<string, FixtureRecords>;
  behaviour?: Record<string, FixtureZone['behaviour']>;
  /** Query names whose records are removed (a test entry that went missing). */
  missing?: string[];
}

/** Serves the default list's world with the given faults. */
function serve(world: World = {}): void {
  dns.setZones(
    dnsblWorld(zones, world.listings ?? {}).map((zone) => {
      const records = Object.fromEntries(
        Object.entries(zone.records ?? {}).filter(([name]) => !world.missing?.includes(name)),
      );
      const wildcard = world.wildcard?.[zone.origin];
      const behaviour = world.behaviour?.[zone.origin];
      return {
        ...zone,
        records,
        ...(wildcard ? { wildcard } : {}),
        ...(behaviour ? { behaviour } : {}),
      };
    }),
  );
}

function freshResolver(timeoutMs = 1000): Resolver {
  return memoryResolver(dns, timeoutMs);
}

/** A list's verdict for its primary side (IPv4 for an ip list), or for its IPv6 side. */
function verdictOf(run: SelfTestRun, zone: string, side: 'primary' | 'ipv6' = 'primary') {
  return run.verdicts.find((verdict) => verdict.zone === zone && verdict.side === side);
}

const ipv6Lists = zones.filter((zone) => zone.ipv6 !== undefined);
/** RFC 5782 §2.4: `::FFFF:7F00:2` and `::FFFF:7F00:1` in the nibble format. */
const ipv6Listed = '2.0.0.0.0.0.f.7.f.f.f.f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0';
const ipv6NotListed = '1.0.0.0.0.0.f.7.f.f.f.f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0';

describe('the RFC 5782 self-test', () => {
  it('passes every zone of the default list on a healthy world', async () => {
    serve();
    const run = await selfTestZones(freshResolver(), zones);
    // Every list, then the IPv6 side of each list that covers IPv6.
    expect(run.verdicts).toHaveLength(zones.length + ipv6Lists.length);
    expect(ipv6Lists.map((zone) => zone.zone)).toEqual([
      'zen.spamhaus.org',
      'combined.mail.abusix.zone',
      'bl.spameatingmonkey.net',
      'bl.nordspam.com',
      'dnsbl.spfbl.net',
      'authbl.dq.spamhaus.net',
    ]);
    expect(run.verdicts.filter((verdict) => verdict.state !== 'passed')).toEqual([]);
    expect(diagnose(run.tally)).toEqual({ kind: 'honest' });
  });

  it('asks a random label, the never-listed entry and the test entry of each zone', async () => {
    serve();
    const before = dns.queries.length;
    await selfTestZones(
      freshResolver(),
      zones.filter((zone) => zone.zone === 'zen.spamhaus.org'),
    );
    const asked = dns.queries.slice(before).map((query) => query.name);
    // Three for its IPv4 side, three for its IPv6 side.
    expect(asked).toHaveLength(6);
    expect(asked).toContain('1.0.0.127.zen.spamhaus.org');
    expect(asked).toContain('2.0.0.127.zen.spamhaus.org');
    expect(
      asked.filter((name) => /^selftest-[0-9a-f]{12}\.zen\.spamhaus\.org$/.test(name)),
    ).toHaveLength(2);
  });

  it("asks the RFC 5782 §5 IPv6 entries in nibble format on a list's IPv6 side, under its IPv6 zone", async () => {
    serve();
    const before = dns.queries.length;
    const run = await selfTestZones(freshResolver(), ipv6Lists, undefined, 'ipv6');
    const asked = dns.queries.slice(before);
    expect(asked.every((query) => query.type === 'A')).toBe(true);
    const names = asked.map((query) => query.name);
    // A random label, the never-listed and the listed entry of each IPv6 side.
    expect(names).toHaveLength(3 * ipv6Lists.length);
    for (const zone of ipv6Lists.map((list) => sideZone(list, 'ipv6'))) {
      expect(names).toContain(`${ipv6Listed}.${zone}`);
      expect(names).toContain(`${ipv6NotListed}.${zone}`);
    }
    expect(names).toContain(`${ipv6Listed}.bl.ipv6.spameatingmonkey.net`);
    expect(names.some((name) => name.endsWith('.bl.spameatingmonkey.net'))).toBe(false);
    expect(run.verdicts).toEqual(
      ipv6Lists.map((zone) => ({ zone: zone.zone, side: 'ipv6', state: 'passed', positive: true })),
    );
  });

  it("disables a list's IPv6 side alone when ::FFFF:7F00:2 is not listed", async () => {
    serve({ missing: [`${ipv6Listed}.zen.spamhaus.org`] });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'zen.spamhaus.org', 'ipv6')).toEqual({
      zone: 'zen.spamhaus.org',
      side: 'ipv6',
      state: 'failed',
      reason: 'self-test: test entry ::ffff:7f00:2 is not listed',
    });
    expect(verdictOf(run, 'zen.spamhaus.org')).toMatchObject({ state: 'passed' });
  });

  it("disables a list's IPv6 side that lists ::FFFF:7F00:1", async () => {
    serve({ listings: { '::ffff:7f00:1': { 'bl.spameatingmonkey.net': ['127.0.0.2'] } } });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'bl.spameatingmonkey.net', 'ipv6')).toMatchObject({
      state: 'failed',
      reason:
        'self-test: test entry ::ffff:7f00:1 answered 127.0.0.2 (the zone answers everything)',
    });
    expect(verdictOf(run, 'bl.spameatingmonkey.net')).toMatchObject({ state: 'passed' });
  });

  it('disables a wildcard zone through the random-label probe', async () => {
    // HostKarma answers for 127.0.0.1 (its whitelist), so only the random label can catch it.
    serve({ wildcard: { 'hostkarma.junkemailfilter.com': { A: ['127.0.0.2'] } } });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'hostkarma.junkemailfilter.com')).toEqual({
      zone: 'hostkarma.junkemailfilter.com',
      side: 'primary',
      state: 'failed',
      reason: expect.stringMatching(
        /random label answered 127\.0\.0\.2 \(the zone answers everything\)/,
      ),
    });
    expect(run.verdicts.filter((verdict) => verdict.state !== 'passed')).toHaveLength(1);
  });

  it('disables a wildcard domain list', async () => {
    serve({ wildcard: { 'multi.uribl.com': { A: ['127.0.0.2'] } } });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'multi.uribl.com')).toMatchObject({ state: 'failed' });
  });

  it('disables a zone that lists 127.0.0.1', async () => {
    serve({ listings: { '127.0.0.1': { 'psbl.surriel.com': ['127.0.0.2'] } } });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'psbl.surriel.com')).toEqual({
      zone: 'psbl.surriel.com',
      side: 'primary',
      state: 'failed',
      reason: expect.stringContaining('test entry 127.0.0.1 answered 127.0.0.2'),
    });
  });

  it('disables a zone that does not list its test entry 127.0.0.2', async () => {
    serve({ missing: ['2.0.0.127.bl.spamcop.net'] });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'bl.spamcop.net')).toEqual({
      zone: 'bl.spamcop.net',
      side: 'primary',
      state: 'failed',
      reason: 'self-test: test entry 127.0.0.2 is not listed',
    });
  });

  it('disables a domain list that does not list its own test entry', async () => {
    serve({ missing: ['dbltest.com.dbl.spamhaus.org'] });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'dbl.spamhaus.org')).toMatchObject({
      state: 'failed',
      reason: 'self-test: test entry dbltest.com is not listed',
    });
  });

  it('disables a zone that answers its test entry with an error code', async () => {
    serve({ listings: { '127.0.0.2': { 'zen.spamhaus.org': ['127.255.255.254'] } } });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'zen.spamhaus.org')).toMatchObject({
      state: 'failed',
      reason: expect.stringContaining('public/open resolver'),
    });
  });

  it('tells the operator to set SPAMHAUS_DQS_KEY when Spamhaus refuses the resolver as a public one', async () => {
    // What Spamhaus answers every query that comes through a public resolver, DoH ones included.
    const refused = { A: ['127.255.255.254'] };
    serve({
      missing: ['2.0.0.127.zen.spamhaus.org', 'dbltest.com.dbl.spamhaus.org'],
      wildcard: { 'zen.spamhaus.org': refused, 'dbl.spamhaus.org': refused },
    });
    const run = await selfTestZones(freshResolver(), zones);
    for (const zone of ['zen.spamhaus.org', 'dbl.spamhaus.org']) {
      expect(verdictOf(run, zone)).toMatchObject({
        state: 'failed',
        reason: expect.stringMatching(/public\/open resolver.*set SPAMHAUS_DQS_KEY/),
      });
    }
    // Another list refusing a query is not told about Spamhaus' key.
    serve({ listings: { '127.0.0.1': { 'bl.spamcop.net': ['127.255.255.254'] } } });
    const other = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(other, 'bl.spamcop.net')).toMatchObject({ state: 'failed' });
    expect(JSON.stringify(other)).not.toContain('SPAMHAUS_DQS_KEY');
  });

  it('leaves a zone that never answers inconclusive, not disabled', async () => {
    serve({ behaviour: { 'bl.spamcop.net': 'drop' } });
    const run = await selfTestZones(freshResolver(200), zones);
    expect(verdictOf(run, 'bl.spamcop.net')).toMatchObject({
      state: 'inconclusive',
      reason: expect.stringContaining('timeout'),
      silent: true,
    });
    expect(diagnose(run.tally)).toEqual({ kind: 'honest' });
  });

  it('leaves a SERVFAIL zone inconclusive', async () => {
    serve({ behaviour: { 'bl.spamcop.net': 'servfail' } });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'bl.spamcop.net')).toMatchObject({ state: 'inconclusive' });
  });

  it('tests the DQS names when a Spamhaus key is configured', async () => {
    const key = 'k3yk3yk3yk3yk3yk3yk3yk3yk3';
    serve();
    const before = dns.queries.length;
    const run = await selfTestZones(
      freshResolver(),
      zones.filter((zone) => zone.zone === 'zen.spamhaus.org'),
      { SPAMHAUS_DQS_KEY: key },
    );
    const asked = dns.queries.slice(before).map((query) => query.name);
    expect(asked).toContain(`2.0.0.127.${key}.zen.dq.spamhaus.net`);
    expect(asked).toContain(`${ipv6Listed}.${key}.zen.dq.spamhaus.net`);
    expect(asked.some((name) => name.endsWith('.zen.spamhaus.org'))).toBe(false);
    // The fixture does not serve the DQS zone (REFUSED): the zone is left as it was.
    expect(run.verdicts).toEqual(
      (['primary', 'ipv6'] as const).map((side) => ({
        zone: 'zen.spamhaus.org',
        side,
        state: 'inconclusive',
        reason: expect.any(String),
        silent: false,
      })),
    );
    expect(JSON.stringify(run)).not.toContain(key);
  });

  // On the wire: a dead server is a closed UDP port, refused by the kernel.
  it('says the resolver did not answer when the DNS server is dead', async () => {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const { port } = socket.address();
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    const dead = createResolver({ servers: [`127.0.0.1:${port}`], timeoutMs: 200, retries: 0 });
    const run = await selfTestZones(dead, zones);
    expect(diagnose(run.tally)).toEqual({ kind: 'silent' });
    expect(run.verdicts.every((verdict) => verdict.state === 'inconclusive')).toBe(true);
  });
});

/** Every documented answer of every list's test entry, one case each. */
const documentedAnswers = zones.flatMap((zone) => [
  ...(zone.selfTest?.answers ?? []).map((answer) => [zone.zone, 'primary', answer] as const),
  ...(zone.ipv6?.selfTest?.answers ?? []).map((answer) => [zone.zone, 'ipv6', answer] as const),
]);

/** Every side of every list of the default list (its IPv6 side where it covers IPv6). */
const everySide = zones.flatMap((zone) => sidesOf(zone).map((side) => [zone.zone, side] as const));

/** A made-up Data Query Service key: the lists only Spamhaus' DQS answers are tested under it. */
const listKey = 'k3yk3yk3yk3yk3yk3yk3yk3yk3';

/**
 * The name a list side is asked under in these tests: a list that answers only with a key
 * (Spamhaus' DQS key, Abusix's) under its name with that key in front (the engine's queryZone);
 * the others under their zone.
 */
function testedZone(zone: DnsblZone): { zone: DnsblZone; keys?: ListKeys } {
  if (zone.key === undefined) return { zone };
  const keys = { [zone.key.variable]: listKey };
  return { zone: { ...zone, zone: queryZone(zone, keys) }, keys };
}

/** The query name of a list side's positive test entry (RFC 5782 §2.1, §2.3, §2.4). */
function positiveName(zone: DnsblZone, side: ListSide): string {
  const entry = positiveEntry(zone, side)!;
  if (side === 'ipv6') return `${reversedNibbles(entry)}.${sideZone(zone, 'ipv6')}`;
  return zone.type === 'ip' ? `${reversedOctets(entry)}.${zone.zone}` : `${entry}.${zone.zone}`;
}

describe('the documented test entries', () => {
  it('gives every list that covers IPv6 the RFC 5782 §5 IPv6 test entry and where IPv6 support is documented', () => {
    for (const zone of ipv6Lists) {
      expect(positiveEntry(zone, 'ipv6')).toBe('::ffff:7f00:2');
      expect(zone.ipv6?.source).toMatch(/^https?:\/\//);
      expect(zone.ipv6?.selfTest?.source).toMatch(/^https?:\/\//);
    }
    expect(
      positiveEntry(
        zones.find((zone) => zone.zone === 'bl.spamcop.net')!,
        'ipv6',
      ),
    ).toBe(undefined);
  });

  it('gives every list of the default zone list a test entry and its source, but where its operator documents none', () => {
    const untested = zones.filter((zone) => positiveEntry(zone) === undefined);
    expect(untested.map((zone) => zone.zone).sort()).toEqual([
      'rep.mailspike.net',
      'score.senderscore.com',
    ]);
    for (const zone of zones) expect(zone.selfTest?.source).toMatch(/^https?:\/\//);
  });

  it.each(everySide)(
    'passes %s (%s side) on a world that answers its test entries as its operator documents',
    async (zoneName, side) => {
      const zone = zones.find((candidate) => candidate.zone === zoneName)!;
      const tested = testedZone(zone);
      dns.setZones(dnsblWorld([tested.zone], {}));
      const run = await selfTestZones(freshResolver(), [zone], tested.keys, side);
      expect(run.verdicts).toEqual([
        {
          zone: zoneName,
          side,
          state: 'passed',
          positive: positiveEntry(zone, side) !== undefined,
        },
      ]);
    },
  );

  it.each(documentedAnswers)(
    'passes %s (%s side) when its test entry answers %s, as its operator documents',
    async (zoneName, side, answer) => {
      const zone = zones.find((candidate) => candidate.zone === zoneName)!;
      const tested = testedZone(zone);
      const name = positiveName(tested.zone, side);
      const origin = sideZone(tested.zone, side);
      dns.setZones([{ origin, records: { [name]: { A: [answer] } } }]);
      const run = await selfTestZones(freshResolver(), [zone], tested.keys, side);
      expect(run.verdicts).toEqual([{ zone: zoneName, side, state: 'passed', positive: true }]);
    },
  );

  it('reads the real answers of Spamhaus DBL, SURBL and URIBL test entries as passes', async () => {
    dns.setZones([
      {
        origin: 'dbl.spamhaus.org',
        records: { 'dbltest.com.dbl.spamhaus.org': { A: ['127.0.1.2'] } },
      },
      // Every bit, including bit 2 that no real SURBL listing sets any more.
      {
        origin: 'multi.surbl.org',
        records: { 'test.surbl.org.multi.surbl.org': { A: ['127.0.0.254'] } },
      },
      {
        origin: 'multi.uribl.com',
        records: { 'test.uribl.com.multi.uribl.com': { A: ['127.0.0.14'] } },
      },
    ]);
    const domainLists = zones.filter((zone) =>
      ['dbl.spamhaus.org', 'multi.surbl.org', 'multi.uribl.com'].includes(zone.zone),
    );
    const run = await selfTestZones(freshResolver(), domainLists);
    expect(run.verdicts.map((verdict) => verdict.state)).toEqual(['passed', 'passed', 'passed']);
  });

  it('fails a list whose test entry answers a code its operator does not document for it', async () => {
    serve({ listings: { '127.0.0.2': { 'bl.spamcop.net': ['127.0.0.3'] } } });
    const run = await selfTestZones(freshResolver(), zones);
    expect(verdictOf(run, 'bl.spamcop.net')).toEqual({
      zone: 'bl.spamcop.net',
      side: 'primary',
      state: 'failed',
      reason: 'self-test: test entry 127.0.0.2: undocumented return code 127.0.0.3',
    });
  });

  it('passes a list with no documented test entry on its random label alone, as not positive', async () => {
    serve();
    const senderScore = zones.filter((zone) => zone.zone === 'score.senderscore.com');
    const run = await selfTestZones(freshResolver(), senderScore);
    expect(run.verdicts).toEqual([
      { zone: 'score.senderscore.com', side: 'primary', state: 'passed', positive: false },
    ]);
  });
});

describe('what a run says about the resolver', () => {
  it('finds a resolver that answers NXDOMAIN to everything: every test entry fails', async () => {
    dns.setZones(zones.map((zone) => ({ origin: zone.zone })));
    const run = await selfTestZones(freshResolver(), zones);
    expect(diagnose(run.tally)).toEqual({ kind: 'nxdomain' });
    expect(verdictOf(run, 'zen.spamhaus.org')).toMatchObject({
      state: 'failed',
      reason: 'self-test: test entry 127.0.0.2 is not listed',
    });
    // A list with no test entry of its own cannot fail, but it proves nothing either.
    expect(verdictOf(run, 'rep.mailspike.net')).toEqual({
      zone: 'rep.mailspike.net',
      side: 'primary',
      state: 'passed',
      positive: false,
    });
  });

  it('finds a resolver that turns NXDOMAIN into a public address', async () => {
    dns.setZones(
      dnsblWorld(zones, {}).map((zone) => ({ ...zone, wildcard: { A: ['203.0.113.80'] } })),
    );
    const run = await selfTestZones(freshResolver(), zones);
    expect(diagnose(run.tally)).toEqual({ kind: 'rewriting', address: '203.0.113.80' });
    expect(run.verdicts.every((verdict) => verdict.state === 'failed')).toBe(true);
    expect(verdictOf(run, 'zen.spamhaus.org')).toMatchObject({
      reason:
        'self-test: a random label answered 203.0.113.80: the resolver turns NXDOMAIN into addresses',
    });
  });

  it('finds a resolver that refuses every query', async () => {
    dns.setZones(zones.map((zone) => ({ origin: zone.zone, behaviour: 'refused' as const })));
    const run = await selfTestZones(freshResolver(), zones);
    expect(diagnose(run.tally)).toEqual({ kind: 'refusing' });
  });
});
