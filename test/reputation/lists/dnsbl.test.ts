import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeadline } from '../../../src/reputation/lookups/deadline.js';
import {
  createDnsblEngine,
  type DnsblReport,
  type DnsblTarget,
  type ListResult,
} from '../../../src/reputation/lists/dnsbl.js';
import { reversedNibbles } from '../../../src/lib/ipv6.js';
import { sideZone } from '../../../src/reputation/lists/list-sides.js';
import type { QueryOptions } from '../../../src/dns/index.js';
import type { ListKeys } from '../../../src/reputation/lists/list-keys.js';
import { type DnsblZone, loadZoneList } from '../../../src/reputation/lists/zones.js';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { keylessZoneList } from '../../../fixtures/keyless-lists.js';
import { dnsblWorld, type Listings } from '../../../fixtures/dnsbl-world.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';

const zones = await keylessZoneList();
const ipZones = zones.filter((zone) => zone.type === 'ip');
const ipv6Zones = ipZones.filter((zone) => zone.ipv6 !== undefined);
const domainZones = zones.filter((zone) => zone.type === 'domain');

let dns: MemoryDns;

beforeAll(async () => {
  dns = memoryWorld(dnsblWorld(zones, {}));
});

afterAll(() => dns.close());

interface Scenario {
  listings?: Listings;
  /** TXT records by query name (the reason a list gives for a listing). */
  txt?: Record<string, string>;
  /** Zone behaviour by zone name. */
  behaviour?: Record<string, FixtureZone['behaviour']>;
  /** Answer delay by zone name. */
  latencyMs?: Record<string, number>;
  /** Extra fixture zones (the DQS names). */
  extraZones?: FixtureZone[];
  disabled?: Record<string, string>;
  /** Zones on hold, with the reason. */
  onHold?: Record<string, string>;
  /** Zones whose IPv6 side is disabled, with the reason. */
  ipv6Disabled?: Record<string, string>;
  spamhausDqsKey?: string;
  timeoutMs?: number;
}

/**
 * Serves the scenario's world and gives an engine on a fresh resolver (no cache from other tests).
 */
function scenario(options: Scenario) {
  const world = dnsblWorld(zones, options.listings ?? {}).map((zone) => {
    const behaviour = options.behaviour?.[zone.origin];
    const records = { ...zone.records };
    for (const [name, text] of Object.entries(options.txt ?? {})) {
      const owner = records[name];
      if (owner) records[name] = { ...owner, TXT: [text] };
    }
    const latencyMs = options.latencyMs?.[zone.origin];
    return {
      ...zone,
      records,
      ...(behaviour ? { behaviour } : {}),
      ...(latencyMs ? { latencyMs } : {}),
    };
  });
  dns.setZones([...world, ...(options.extraZones ?? [])]);
  const resolver = memoryResolver(dns, options.timeoutMs ?? 1000);
  const engine = createDnsblEngine({
    resolver,
    zones,
    gate: (zone: DnsblZone, side) => {
      const ipv6Disabled = side === 'ipv6' ? options.ipv6Disabled?.[zone.zone] : undefined;
      if (ipv6Disabled !== undefined) return { state: 'disabled' as const, reason: ipv6Disabled };
      const disabled = options.disabled?.[zone.zone];
      if (disabled !== undefined) return { state: 'disabled' as const, reason: disabled };
      const held = options.onHold?.[zone.zone];
      if (held !== undefined) return { state: 'on_hold' as const, reason: held };
      return { state: 'active' as const };
    },
    ...(options.spamhausDqsKey ? { keys: { SPAMHAUS_DQS_KEY: options.spamhausDqsKey } } : {}),
  });
  return {
    async check(target: DnsblTarget, deadlineMs = 2000): Promise<DnsblReport> {
      const deadline = createDeadline(deadlineMs);
      try {
        return await engine.check(target, deadline);
      } finally {
        deadline.clear();
      }
    },
  };
}

function list(report: DnsblReport, zone: string): ListResult {
  const found = report.lists.find((result) => result.zone === zone);
  if (!found) throw new Error(`${zone} is not in the report`);
  return found;
}

/** The statuses of every list but the ones named. */
function otherStatuses(report: DnsblReport, ...except: string[]): Set<string> {
  return new Set(
    report.lists.filter((result) => !except.includes(result.zone)).map((result) => result.status),
  );
}

const ip = (address: string): DnsblTarget => ({ kind: 'ip', address });

describe('an IP check', () => {
  it('reports a listing with its meaning and the TXT reason the list gives', async () => {
    const reason = 'https://check.spamhaus.org/listed/?searchterm=198.51.100.7';
    const report = await scenario({
      listings: { '198.51.100.7': { 'zen.spamhaus.org': ['127.0.0.2'] } },
      txt: { '7.100.51.198.zen.spamhaus.org': reason },
    }).check(ip('198.51.100.7'));
    expect(list(report, 'zen.spamhaus.org')).toEqual({
      zone: 'zen.spamhaus.org',
      name: 'Spamhaus ZEN',
      type: 'ip',
      severity: 'major',
      status: 'listed',
      codes: ['127.0.0.2'],
      listings: [
        {
          code: '127.0.0.2',
          meaning: 'SBL: direct spam source, spam operation or spam service',
          severity: 'major',
          weight: 40,
        },
      ],
      reason,
      lookup_url: 'https://check.spamhaus.org/listed/?searchterm=198.51.100.7',
      delist_url: 'https://check.spamhaus.org/',
    });
    expect(otherStatuses(report, 'zen.spamhaus.org')).toEqual(new Set(['clean']));
    expect(report).toMatchObject({ listed: 1, answered: ipZones.length, total: ipZones.length });
  });

  it('asks every IP zone once, under the reversed octets (RFC 5782 §2.1), and no domain zone', async () => {
    const engine = scenario({});
    const before = dns.queries.length;
    await engine.check(ip('192.0.2.45'));
    const asked = dns.queries.slice(before).filter((query) => query.type === 'A');
    expect(asked.map((query) => query.name).sort()).toEqual(
      ipZones.map((zone) => `45.2.0.192.${zone.zone}`).sort(),
    );
  });

  it('reports an address no list holds as clean on every list', async () => {
    const report = await scenario({}).check(ip('192.0.2.1'));
    expect(otherStatuses(report)).toEqual(new Set(['clean']));
    expect(report).toMatchObject({ listed: 0, answered: ipZones.length, total: ipZones.length });
    expect(report.lists.every((result) => result.listings === undefined)).toBe(true);
  });

  it('keeps a listing whose list gives no TXT reason', async () => {
    const report = await scenario({
      listings: { '192.0.2.2': { 'bl.spamcop.net': ['127.0.0.2'] } },
    }).check(ip('192.0.2.2'));
    const result = list(report, 'bl.spamcop.net');
    expect(result.status).toBe('listed');
    expect(result.reason).toBeUndefined();
  });

  it('keeps a listing without its reason when the TXT record would come after the deadline', async () => {
    const engine = scenario({
      listings: { '192.0.2.13': { 'bl.spamcop.net': ['127.0.0.2'] } },
      txt: { '13.2.0.192.bl.spamcop.net': 'listed: see https://www.spamcop.net/' },
      // The A answer comes at 150 ms; the TXT asked then would come at 300 ms.
      latencyMs: { 'bl.spamcop.net': 150 },
    });
    const start = performance.now();
    const report = await engine.check(ip('192.0.2.13'), 250);
    expect(performance.now() - start).toBeLessThan(250 + 150);
    const result = list(report, 'bl.spamcop.net');
    expect(result).toMatchObject({ status: 'listed', codes: ['127.0.0.2'] });
    expect(result.reason).toBeUndefined();
  });

  it.each([
    ['127.255.255.252', /typing error/],
    ['127.255.255.254', /public\/open resolver/],
    ['127.255.255.255', /excessive number of queries/],
  ])('reports a Spamhaus %s answer as an error, not a listing', async (code, message) => {
    const report = await scenario({
      listings: { '192.0.2.3': { 'zen.spamhaus.org': [code] } },
    }).check(ip('192.0.2.3'));
    expect(list(report, 'zen.spamhaus.org')).toMatchObject({
      status: 'error',
      codes: [code],
      error: expect.stringMatching(message),
    });
    expect(list(report, 'zen.spamhaus.org').listings).toBeUndefined();
    expect(report.listed).toBe(0);
    expect(report.answered).toBe(ipZones.length - 1);
  });

  it('reports an answer outside 127/8 as an error: a resolver rewriting NXDOMAIN', async () => {
    const report = await scenario({
      listings: { '192.0.2.4': { 'b.barracudacentral.org': ['198.51.100.200'] } },
    }).check(ip('192.0.2.4'));
    expect(list(report, 'b.barracudacentral.org')).toMatchObject({
      status: 'error',
      error: expect.stringContaining('outside 127.0.0.0/8'),
    });
    expect(report.listed).toBe(0);
  });

  it('reports 127.0.0.1 on a list that does not document it as an error', async () => {
    const report = await scenario({
      listings: { '192.0.2.5': { 'psbl.surriel.com': ['127.0.0.1'] } },
    }).check(ip('192.0.2.5'));
    expect(list(report, 'psbl.surriel.com')).toMatchObject({
      status: 'error',
      error: 'undocumented return code 127.0.0.1',
    });
  });

  it('reports SERVFAIL and REFUSED as errors, never as clean', async () => {
    const report = await scenario({
      behaviour: { 'bl.spamcop.net': 'servfail', 'psbl.surriel.com': 'refused' },
    }).check(ip('192.0.2.6'));
    expect(list(report, 'bl.spamcop.net')).toMatchObject({
      status: 'error',
      error: "the list's server answered SERVFAIL",
    });
    expect(list(report, 'psbl.surriel.com')).toMatchObject({
      status: 'error',
      error: "the list's server answered REFUSED",
    });
    expect(otherStatuses(report, 'bl.spamcop.net', 'psbl.surriel.com')).toEqual(new Set(['clean']));
    expect(report.answered).toBe(ipZones.length - 2);
  });

  it('reports a list the resolver gives up on as timeout, never as clean', async () => {
    const report = await scenario({
      behaviour: { 'bl.spamcop.net': 'drop' },
      timeoutMs: 200,
    }).check(ip('192.0.2.8'), 3000);
    expect(list(report, 'bl.spamcop.net')).toMatchObject({ status: 'timeout' });
    expect(report.answered).toBe(ipZones.length - 1);
  });

  it('returns within the deadline when a list never answers, with that list as timeout', async () => {
    const deadlineMs = 400;
    const engine = scenario({
      listings: { '192.0.2.9': { 'zen.spamhaus.org': ['127.0.0.4'] } },
      behaviour: { 'bl.spamcop.net': 'drop', 'truncate.gbudb.net': 'drop' },
      // The resolver would wait far longer than the check may.
      timeoutMs: 5000,
    });
    const start = performance.now();
    const report = await engine.check(ip('192.0.2.9'), deadlineMs);
    const elapsed = performance.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(deadlineMs - 5);
    expect(elapsed).toBeLessThan(deadlineMs + 250);
    expect(list(report, 'bl.spamcop.net')).toMatchObject({
      status: 'timeout',
      error: 'no answer in time',
    });
    expect(list(report, 'truncate.gbudb.net').status).toBe('timeout');
    // The lists that did answer are kept.
    expect(list(report, 'zen.spamhaus.org').status).toBe('listed');
    expect(report).toMatchObject({ listed: 1, answered: ipZones.length - 2 });
  });

  it("returns at its own deadline while it waits on another check's look-up of the same list", async () => {
    const engine = scenario({
      behaviour: { 'bl.spamcop.net': 'drop' },
      timeoutMs: 5000,
    });
    // The first check asks every list under a long deadline; the second joins its queries in the
    // cache, and its own, short deadline ends it while the shared query still waits.
    const first = engine.check(ip('192.0.2.14'), 3000);
    const start = performance.now();
    const report = await engine.check(ip('192.0.2.14'), 300);
    const elapsed = performance.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(800);
    expect(list(report, 'bl.spamcop.net')).toMatchObject({
      status: 'timeout',
      error: 'no answer in time',
    });
    expect(list(report, 'zen.spamhaus.org').status).toBe('clean');
    expect(list(await first, 'bl.spamcop.net').status).toBe('timeout');
  });

  it('does not query a disabled zone and reports it disabled with the reason', async () => {
    const engine = scenario({
      listings: { '192.0.2.10': { 'bl.spamcop.net': ['127.0.0.2'] } },
      disabled: { 'bl.spamcop.net': 'self-test: a random label answered 127.0.0.2' },
    });
    const before = dns.queries.length;
    const report = await engine.check(ip('192.0.2.10'));
    expect(list(report, 'bl.spamcop.net')).toMatchObject({
      status: 'disabled',
      error: 'self-test: a random label answered 127.0.0.2',
    });
    expect(dns.queries.slice(before).some((q) => q.name.endsWith('bl.spamcop.net'))).toBe(false);
    expect(report).toMatchObject({ listed: 0, answered: ipZones.length - 1, disabled: 1 });
  });

  it('reports a list on hold as not answered without asking it or waiting for it', async () => {
    const engine = scenario({
      listings: { '192.0.2.12': { 'bl.spamcop.net': ['127.0.0.2'] } },
      behaviour: { 'bl.spamcop.net': 'drop' },
      onHold: { 'bl.spamcop.net': 'on hold: 3 look-ups in a row got no answer' },
    });
    const before = dns.queries.length;
    const started = performance.now();
    const report = await engine.check(ip('192.0.2.12'));
    expect(performance.now() - started).toBeLessThan(500);
    expect(list(report, 'bl.spamcop.net')).toMatchObject({
      status: 'timeout',
      on_hold: true,
      error: 'on hold: 3 look-ups in a row got no answer',
    });
    expect(dns.queries.slice(before).some((q) => q.name.endsWith('bl.spamcop.net'))).toBe(false);
    expect(report).toMatchObject({
      listed: 0,
      answered: ipZones.length - 1,
      not_answered: 0,
      on_hold: 1,
      disabled: 0,
      total: ipZones.length,
    });
  });

  it('tells each look-up outcome to onLookup, a timeout too even after the deadline', async () => {
    const world = dnsblWorld(zones, {}).map((zone) =>
      zone.origin === 'bl.spamcop.net' ? { ...zone, behaviour: 'drop' as const } : zone,
    );
    dns.setZones(world);
    const seen: [string, string][] = [];
    const engine = createDnsblEngine({
      resolver: memoryResolver(dns, 1500),
      zones,
      onLookup: (zone, status) => seen.push([zone.zone, status]),
    });
    // The deadline ends the check before the dropped list's own timeout does.
    const deadline = createDeadline(500);
    try {
      const report = await engine.check(ip('192.0.2.13'), deadline);
      expect(list(report, 'bl.spamcop.net').status).toBe('timeout');
    } finally {
      deadline.clear();
    }
    await expect.poll(() => seen, { timeout: 5000 }).toContainEqual(['bl.spamcop.net', 'timeout']);
    expect(seen).toContainEqual(['zen.spamhaus.org', 'nxdomain']);
  });

  it("asks an IPv6 address in nibble format (RFC 5782 §2.4) of each list's IPv6 zone, and no other list", async () => {
    const address = '2a01:4f8:50::25';
    const nibbles = reversedNibbles(address);
    const engine = scenario({
      listings: { [address]: { 'bl.spameatingmonkey.net': ['127.0.0.2'] } },
      txt: { [`${nibbles}.bl.ipv6.spameatingmonkey.net`]: 'IPv6 /64 hit our traps' },
    });
    const before = dns.queries.length;
    const report = await engine.check(ip(address));
    const asked = dns.queries.slice(before).map((query) => `${query.type} ${query.name}`);
    expect(asked.sort()).toEqual(
      [
        ...ipv6Zones.map((zone) => `A ${nibbles}.${sideZone(zone, 'ipv6')}`),
        `TXT ${nibbles}.bl.ipv6.spameatingmonkey.net`,
      ].sort(),
    );
    expect(asked).toContain(`A ${nibbles}.zen.spamhaus.org`);
    expect(list(report, 'bl.ipv6.spameatingmonkey.net')).toMatchObject({
      name: 'Spam Eating Monkey SEM-IPV6BL',
      status: 'listed',
      reason: 'IPv6 /64 hit our traps',
    });
    expect(list(report, 'zen.spamhaus.org').status).toBe('clean');
    expect(list(report, 'bl.spamcop.net')).toEqual({
      zone: 'bl.spamcop.net',
      name: 'SpamCop Blocking List',
      type: 'ip',
      severity: 'major',
      status: 'disabled',
      not_covered: true,
      error: 'does not cover IPv6',
    });
    expect(report).toMatchObject({
      listed: 1,
      answered: ipv6Zones.length,
      not_answered: 0,
      on_hold: 0,
      disabled: 0,
      not_covered: ipZones.length - ipv6Zones.length,
      total: ipv6Zones.length,
    });
  });

  it("gates a list's IPv6 side on its own: disabled there, asked for IPv4", async () => {
    const engine = scenario({ ipv6Disabled: { 'zen.spamhaus.org': 'self-test: ::ffff:7f00:2' } });
    const v6 = await engine.check(ip('2a01:4f8:50::26'));
    expect(list(v6, 'zen.spamhaus.org')).toMatchObject({
      status: 'disabled',
      error: 'self-test: ::ffff:7f00:2',
    });
    expect(v6).toMatchObject({
      answered: ipv6Zones.length - 1,
      disabled: 1,
      total: ipv6Zones.length,
    });
    const v4 = await engine.check(ip('192.0.2.26'));
    expect(list(v4, 'zen.spamhaus.org').status).toBe('clean');
  });

  it('asks the Spamhaus DQS name for an IPv6 address too, and tells onLookup the side', async () => {
    const key = 'k3yk3yk3yk3yk3yk3yk3yk3yk3';
    const seen: [string, string, string][] = [];
    dns.setZones(dnsblWorld(zones, {}));
    const engine = createDnsblEngine({
      resolver: memoryResolver(dns, 300),
      zones: zones.filter((zone) => zone.zone === 'zen.spamhaus.org'),
      keys: { SPAMHAUS_DQS_KEY: key },
      onLookup: (zone, status, side) => seen.push([zone.zone, status, side]),
    });
    const before = dns.queries.length;
    const deadline = createDeadline(1000);
    try {
      await engine.check(ip('2a01:4f8:50::27'), deadline);
    } finally {
      deadline.clear();
    }
    expect(dns.queries.slice(before).map((query) => query.name)).toEqual([
      `${reversedNibbles('2a01:4f8:50::27')}.${key}.zen.dq.spamhaus.net`,
    ]);
    expect(seen).toEqual([['zen.spamhaus.org', 'refused', 'ipv6']]);
  });

  it('reads graded lists as grades, not as listings', async () => {
    const report = await scenario({
      listings: {
        '192.0.2.11': {
          'score.senderscore.com': ['127.0.4.60'],
          'list.dnswl.org': ['127.0.10.3'],
          'rep.mailspike.net': ['127.0.0.11'],
          'hostkarma.junkemailfilter.com': ['127.0.0.1'],
        },
      },
    }).check(ip('192.0.2.11'));
    expect(list(report, 'score.senderscore.com')).toMatchObject({
      status: 'clean',
      grade: { label: 'Sender Score 60', points: -10, listed: false },
    });
    expect(list(report, 'list.dnswl.org')).toEqual({
      zone: 'list.dnswl.org',
      name: 'DNSWL.org',
      type: 'ip',
      severity: 'info',
      status: 'allowlisted',
      codes: ['127.0.10.3'],
      trust: 'high',
      allowlist_entries: [
        { code: '127.0.10.3', meaning: 'special case, trust high', trust: 'high' },
      ],
    });
    expect(list(report, 'rep.mailspike.net')).toMatchObject({
      status: 'clean',
      grade: { label: 'poor reputation L4', points: -15 },
    });
    expect(list(report, 'hostkarma.junkemailfilter.com')).toMatchObject({
      status: 'clean',
      grade: { label: 'white (trusted)', points: 3 },
    });
    expect(report).toMatchObject({ listed: 0, allowlisted: 1, answered: ipZones.length });
  });

  it('reads an allowlist hit as allowlisted with the trust its code encodes, never as a listing', async () => {
    const report = await scenario({
      listings: {
        '192.0.2.13': {
          'wl.mailspike.net': ['127.0.0.19'],
          'iadb.isipp.com': ['127.0.0.1', '127.0.1.255'],
        },
      },
    }).check(ip('192.0.2.13'));
    expect(list(report, 'wl.mailspike.net')).toMatchObject({
      status: 'allowlisted',
      trust: 'medium',
      allowlist_entries: [{ code: '127.0.0.19', trust: 'medium' }],
    });
    expect(list(report, 'iadb.isipp.com')).toMatchObject({
      status: 'allowlisted',
      trust: 'medium',
      allowlist_entries: [
        { code: '127.0.0.1', trust: 'low' },
        { code: '127.0.1.255', meaning: 'vouched listing', trust: 'medium' },
      ],
    });
    expect(list(report, 'iadb.isipp.com').lookup_url).toBeUndefined();
    expect(report).toMatchObject({ listed: 0, allowlisted: 2, answered: ipZones.length });
  });

  it('fills the target into a lookup page, URL-encoded, for an IPv6 address too', async () => {
    const address = '2a01:4f8:50::27';
    const report = await scenario({
      listings: { [address]: { 'zen.spamhaus.org': ['127.0.0.2'] } },
    }).check(ip(address));
    expect(list(report, 'zen.spamhaus.org')).toMatchObject({
      status: 'listed',
      lookup_url: `https://check.spamhaus.org/listed/?searchterm=${encodeURIComponent(address)}`,
      delist_url: 'https://check.spamhaus.org/',
    });
    expect(list(report, 'zen.spamhaus.org').lookup_url).toContain('2a01%3A4f8%3A50%3A%3A27');
  });

  it('reads HostKarma black as a listing that carries its grade', async () => {
    const report = await scenario({
      listings: { '192.0.2.12': { 'hostkarma.junkemailfilter.com': ['127.0.0.2'] } },
    }).check(ip('192.0.2.12'));
    expect(list(report, 'hostkarma.junkemailfilter.com')).toMatchObject({
      status: 'listed',
      grade: { label: 'black (spam source)', points: -20, listed: true },
    });
    expect(report.listed).toBe(1);
  });
});

describe('a domain check', () => {
  it('asks the domain zones under the name itself (RFC 5782 §2.3) and reads bitmasks', async () => {
    const engine = scenario({
      listings: {
        'spam.example': {
          'dbl.spamhaus.org': ['127.0.1.2'],
          'multi.uribl.com': ['127.0.0.10'],
        },
      },
    });
    const before = dns.queries.length;
    const report = await engine.check({ kind: 'domain', name: 'spam.example' });
    expect(
      dns.queries
        .slice(before)
        .filter((q) => q.type === 'A')
        .map((q) => q.name)
        .sort(),
    ).toEqual(domainZones.map((zone) => `spam.example.${zone.zone}`).sort());
    expect(report.total).toBe(domainZones.length);
    expect(list(report, 'dbl.spamhaus.org')).toMatchObject({
      status: 'listed',
      listings: [{ meaning: 'low-reputation (spam) domain' }],
    });
    expect(list(report, 'multi.uribl.com')).toMatchObject({
      status: 'listed',
      listings: [
        { meaning: expect.stringMatching(/^black/) },
        { meaning: expect.stringMatching(/^red/) },
      ],
    });
    expect(report.listed).toBe(2);
  });

  it('reports DBL 127.0.1.255 and URIBL 127.0.0.1 as errors', async () => {
    const report = await scenario({
      listings: {
        'blocked.example': {
          'dbl.spamhaus.org': ['127.0.1.255'],
          'multi.uribl.com': ['127.0.0.1'],
        },
      },
    }).check({ kind: 'domain', name: 'blocked.example' });
    expect(list(report, 'dbl.spamhaus.org').status).toBe('error');
    expect(list(report, 'multi.uribl.com')).toMatchObject({
      status: 'error',
      error: expect.stringContaining('query refused'),
    });
    expect(report.listed).toBe(0);
  });
});

describe('Spamhaus DQS', () => {
  const key = 'k3yk3yk3yk3yk3yk3yk3yk3yk3';
  const dqsName = `7.100.51.198.${key}.zen.dq.spamhaus.net`;

  it('asks <key>.zen.dq.spamhaus.net with a key, and the key appears nowhere in the result', async () => {
    const engine = scenario({
      spamhausDqsKey: key,
      extraZones: [
        {
          origin: `${key}.zen.dq.spamhaus.net`,
          records: {
            [dqsName]: {
              A: ['127.0.0.3'],
              // A list may echo the name asked in its reason: the key is inside.
              TXT: [`Listed in CSS, see https://check.spamhaus.org/query/ip/${dqsName}`],
            },
          },
        },
      ],
    });
    const before = dns.queries.length;
    const report = await engine.check(ip('198.51.100.7'));
    const asked = dns.queries.slice(before).map((query) => query.name);
    expect(asked).toContain(dqsName);
    expect(asked.some((name) => name.endsWith('.zen.spamhaus.org'))).toBe(false);

    const zen = list(report, 'zen.spamhaus.org');
    expect(zen).toMatchObject({ status: 'listed', listings: [{ code: '127.0.0.3' }] });
    expect(zen.reason).toContain('check.spamhaus.org');
    const json = JSON.stringify(report);
    expect(json).not.toContain(key);
    expect(json.toLowerCase()).not.toContain(key.slice(0, 12));
  });

  it('hides the key in a reason that echoes the name in upper case', async () => {
    const upperName = `8.100.51.198.${key}.zen.dq.spamhaus.net`;
    const report = await scenario({
      spamhausDqsKey: key,
      extraZones: [
        {
          origin: `${key}.zen.dq.spamhaus.net`,
          records: {
            [upperName]: {
              A: ['127.0.0.3'],
              TXT: [`Listed, see https://check.spamhaus.org/query/ip/${upperName.toUpperCase()}`],
            },
          },
        },
      ],
    }).check(ip('198.51.100.8'));
    const zen = list(report, 'zen.spamhaus.org');
    expect(zen.reason).toContain('<key>');
    expect(JSON.stringify(report).toLowerCase()).not.toContain(key);
  });

  it('keeps the key out of the result when the DQS zone fails', async () => {
    const report = await scenario({
      spamhausDqsKey: key,
      extraZones: [{ origin: `${key}.zen.dq.spamhaus.net`, behaviour: 'servfail' }],
    }).check(ip('198.51.100.8'));
    expect(list(report, 'zen.spamhaus.org').status).toBe('error');
    expect(JSON.stringify(report)).not.toContain(key);
  });

  it('asks zen.spamhaus.org itself without a key', async () => {
    const engine = scenario({});
    const before = dns.queries.length;
    await engine.check(ip('198.51.100.9'));
    const asked = dns.queries.slice(before).map((query) => query.name);
    expect(asked).toContain('9.100.51.198.zen.spamhaus.org');
    expect(asked.some((name) => name.includes('dq.spamhaus.net'))).toBe(false);
  });
});

const everyZone = await loadZoneList();

describe('keyed lists', () => {
  const abusix = everyZone.find((zone) => zone.zone === 'combined.mail.abusix.zone')!;
  const key = 'Abusix-K3y';

  /** An engine on every list of the default zone list, keyed ones included, with these keys. */
  function keyedEngine(keys: ListKeys) {
    return createDnsblEngine({
      resolver: memoryResolver(dns, 500),
      zones: everyZone.filter((zone) => zone.type === 'ip'),
      keys,
    });
  }

  async function checkWith(keys: ListKeys, address: string): Promise<DnsblReport> {
    const deadline = createDeadline(2000);
    try {
      return await keyedEngine(keys).check(ip(address), deadline);
    } finally {
      deadline.clear();
    }
  }

  it('shows a keyed list without its key as disabled, naming the variable, and never asks it', async () => {
    dns.setZones(dnsblWorld(everyZone, {}));
    const before = dns.queries.length;
    const report = await checkWith({}, '198.51.100.20');
    expect(list(report, abusix.zone)).toEqual({
      zone: abusix.zone,
      name: abusix.name,
      type: 'ip',
      severity: 'major',
      status: 'disabled',
      key: 'ABUSIX_KEY',
      error: expect.stringContaining('set ABUSIX_KEY to ask it'),
    });
    const keyed = everyZone.filter((zone) => zone.type === 'ip' && zone.key !== undefined);
    expect(report.disabled).toBe(keyed.length);
    const asked = dns.queries.slice(before).map((query) => query.name);
    expect(asked.filter((name) => keyed.some((zone) => name.endsWith(zone.zone)))).toEqual([]);
  });

  it('asks a keyed list under its key once set, and hides the key in a reason whatever its case', async () => {
    const name = `20.100.51.198.${key}.${abusix.zone}`;
    dns.setZones([
      ...dnsblWorld(everyZone, {}),
      {
        origin: `${key}.${abusix.zone}`,
        records: {
          [name]: { A: ['127.0.0.2'], TXT: [`listed: see ${name.toUpperCase()} and ${name}`] },
        },
      },
    ]);
    const report = await checkWith({ ABUSIX_KEY: key }, '198.51.100.20');
    expect(list(report, abusix.zone)).toMatchObject({
      status: 'listed',
      lookup_url: 'https://lookup.abusix.com/search?q=198.51.100.20',
      delist_url: 'https://lookup.abusix.com/',
    });
    expect(list(report, abusix.zone).reason).toContain('<key>');
    expect(JSON.stringify(report).toLowerCase()).not.toContain(key.toLowerCase());
  });
});

describe("a list's own timeout", () => {
  it('reaches the resolver with each look-up on the list, and no other', async () => {
    const asked: { name: string; options: QueryOptions | undefined }[] = [];
    const spamcop = ipZones.find((zone) => zone.zone === 'bl.spamcop.net')!;
    const engine = createDnsblEngine({
      resolver: {
        query: async (name, _type, options) => {
          asked.push({ name, options });
          return { status: 'nxdomain' };
        },
      },
      zones: ipZones,
      gate: (zone) =>
        zone === spamcop ? { state: 'active', timeoutMs: 180 } : { state: 'active' },
    });
    const deadline = createDeadline(1000);
    try {
      await engine.check(ip('198.51.100.30'), deadline);
    } finally {
      deadline.clear();
    }
    const timeouts = new Map(asked.map(({ name, options }) => [name, options?.timeoutMs]));
    expect(timeouts.get('30.100.51.198.bl.spamcop.net')).toBe(180);
    expect([...timeouts.values()].filter((timeout) => timeout !== undefined)).toEqual([180]);
  });
});
