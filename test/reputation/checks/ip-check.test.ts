import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Resolver } from '../../../src/dns/index.js';
import { createDnsblEngine } from '../../../src/reputation/lists/dnsbl.js';
import { reversedNibbles } from '../../../src/lib/ipv6.js';
import {
  checkIp,
  type IpCheckDeps,
  type IpCheckOutcome,
} from '../../../src/reputation/checks/ip-check.js';
import { parseTarget, type Target } from '../../../src/reputation/targets/targets.js';
import { sideZone } from '../../../src/reputation/lists/list-sides.js';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { keylessZoneList } from '../../../fixtures/keyless-lists.js';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';
import { createResolver } from '../../../src/node/dns/index.js';

const zones = await keylessZoneList();
const ipZones = zones.filter((zone) => zone.type === 'ip');
const now = new Date('2025-06-01T12:00:00Z');

/** Public addresses (nothing is ever sent to them: only DNS questions to the fixture). */
const listedIp = '8.8.100.7';
const cleanIp = '8.8.100.8';
/** IPv6 senders, as RFC 4291 lets them be written and as RFC 5952 writes them. */
const listedIp6 = '2a01:4f8:c17:1::25';
const cleanIp6 = '2a01:4f8:c17:1::26';
const nibbles = (address: string) => reversedNibbles(address);

const hostZones: FixtureZone[] = [
  {
    origin: '100.8.8.in-addr.arpa',
    records: {
      '7.100.8.8.in-addr.arpa': { PTR: ['mail.sender.net'] },
      '8.100.8.8.in-addr.arpa': { PTR: ['dynamic-8.isp.net'] },
    },
  },
  {
    origin: 'sender.net',
    records: {
      'mail.sender.net': { A: [listedIp] },
      'mixed.sender.net': { A: ['10.0.0.5', cleanIp, '192.168.1.1', '8.8.100.9'] },
      'inside.sender.net': { A: ['10.0.0.5', '192.168.1.1', '127.0.0.1'] },
      'noaddress.sender.net': { MX: [{ exchange: 'mail.sender.net', priority: 10 }] },
      'many.sender.net': { A: Array.from({ length: 40 }, (_, i) => `8.8.101.${i + 1}`) },
    },
  },
  { origin: 'isp.net', records: { 'dynamic-8.isp.net': { A: ['8.8.200.200'] } } },
  {
    // RFC 3596 §2.5: the PTR records of the IPv6 senders, under ip6.arpa.
    origin: 'ip6.arpa',
    records: {
      [`${nibbles(listedIp6)}.ip6.arpa`]: { PTR: ['mail6.sender6.net'] },
      [`${nibbles(cleanIp6)}.ip6.arpa`]: { PTR: ['liar6.sender6.net'] },
    },
  },
  {
    origin: 'sender6.net',
    records: {
      // Written in a long form: a resolver may answer any form of the address.
      'mail6.sender6.net': { AAAA: ['2a01:04f8:0c17:0001:0000:0000:0000:0025'] },
      // An A record with the address's digits is no AAAA record: FCrDNS must fail.
      'liar6.sender6.net': { AAAA: ['2a01:4f8:c17:1::99'], A: ['8.8.100.8'] },
      'only6.sender6.net': { AAAA: [cleanIp6, listedIp6] },
      'dual.sender6.net': { A: [cleanIp], AAAA: [listedIp6] },
      // What a hostile server may answer: none of it public, none of it checked.
      'inside6.sender6.net': {
        AAAA: ['::ffff:10.0.0.1', 'fe80::1', 'fd00::5', '64:ff9b::a00:1', '2002:a00:1::1'],
      },
    },
  },
];

let dns: MemoryDns;

beforeAll(async () => {
  dns = memoryWorld([
    ...dnsblWorld(zones, {
      [listedIp]: { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] },
      [listedIp6]: {
        'zen.spamhaus.org': ['127.0.0.3'],
        'bl.spameatingmonkey.net': ['127.0.0.2'],
      },
    }),
    ...hostZones,
  ]);
});

afterAll(() => dns.close());

function depsOver(resolver: Resolver, deadlineMs = 2000): IpCheckDeps {
  const dnsbl = createDnsblEngine({ resolver, zones });
  return { resolver, dnsbl, deadlineMs, now: () => now };
}

function target(text: string): Target {
  const parsed = parseTarget(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.reason}`);
  return parsed.target;
}

function freshResolver(world = dns, timeoutMs = 1000): Resolver {
  return memoryResolver(world, timeoutMs);
}

/** On the wire: a dead DNS server is a closed UDP port, which the kernel refuses. */
async function closedPortAddress(): Promise<string> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

function resultOf(outcome: IpCheckOutcome) {
  if (!outcome.ok) throw new Error(`check failed: ${outcome.error} ${outcome.reason}`);
  return outcome.result;
}

describe('checkIp', () => {
  it('checks an IPv4 address against every IP list, with reverse DNS and a score', async () => {
    const result = resultOf(await checkIp(depsOver(freshResolver()), target(listedIp)));
    expect(result).toMatchObject({
      kind: 'ipv4',
      target: listedIp,
      ip: listedIp,
      ptr: 'mail.sender.net',
      ip_score: {
        listed: 2,
        answered: ipZones.length,
        total: ipZones.length,
        verdict: 'poor',
        confidence: 'high',
        score: 100 - 40 - 30,
        rdns: { fcrdns: 'pass', ptr: 'mail.sender.net' },
        checked_at: now.toISOString(),
      },
    });
    expect(result.ip_score.lists).toHaveLength(ipZones.length);
    expect(result.ip_score.addresses).toBeUndefined();
    expect(result.ip_score.factors.map((factor) => factor.source)).toEqual([
      'Spamhaus ZEN',
      'SpamCop Blocking List',
    ]);
  });

  it('holds a clean address whose PTR does not resolve back under good (the ptr rule)', async () => {
    const result = resultOf(await checkIp(depsOver(freshResolver()), target(cleanIp)));
    expect(result.ptr).toBe('dynamic-8.isp.net');
    expect(result.ip_score).toMatchObject({
      listed: 0,
      score: 79,
      verdict: 'fair',
      rdns: { fcrdns: 'fail' },
      factors: [
        {
          kind: 'requirement',
          detail: 'held under 80, not a good mail sender: PTR not confirmed forward (FCrDNS)',
          points: -11,
        },
        { kind: 'reverse_dns', source: 'FCrDNS', points: -10 },
      ],
    });
  });

  it('checks the public address a host name resolves to', async () => {
    const result = resultOf(await checkIp(depsOver(freshResolver()), target('Mail.Sender.NET.')));
    expect(result).toMatchObject({
      kind: 'domain',
      target: 'mail.sender.net',
      ip: listedIp,
      ptr: 'mail.sender.net',
      ip_score: { listed: 2, addresses: [listedIp] },
    });
  });

  it('checks the first public address of a host name and lists them all, private ones left out', async () => {
    const result = resultOf(await checkIp(depsOver(freshResolver()), target('mixed.sender.net')));
    expect(result.ip).toBe(cleanIp);
    expect(result.ip_score.addresses).toEqual([cleanIp, '8.8.100.9']);
  });

  it.each([
    ['resolves only to non-public addresses', 'inside.sender.net'],
    ['does not exist (NXDOMAIN)', 'nowhere.sender.net'],
    ['has no address (NODATA)', 'noaddress.sender.net'],
    ['resolves only to non-public IPv6 addresses', 'inside6.sender6.net'],
  ])(
    'refuses a host name that %s as invalid_target, in the same words as the others',
    async (_, name) => {
      // Which of the three it is must not show: that would tell a caller which internal names exist.
      expect(await checkIp(depsOver(freshResolver()), target(name))).toEqual({
        ok: false,
        error: 'invalid_target',
        reason: `${name} has no public IP address`,
      });
    },
  );

  it('lists the first 32 of a host name’s 40 addresses, and counts them all', async () => {
    const result = resultOf(await checkIp(depsOver(freshResolver()), target('many.sender.net')));
    expect(result.ip).toBe('8.8.101.1');
    expect(result.ip_score.addresses).toHaveLength(32);
    expect(result.ip_score.addresses_total).toBe(40);
  });

  it('asks no list about a refused host name', async () => {
    const before = dns.queries.length;
    await checkIp(depsOver(freshResolver()), target('inside.sender.net'));
    expect(dns.queries.slice(before)).toEqual([
      { name: 'inside.sender.net', type: 'A' },
      { name: 'inside.sender.net', type: 'AAAA' },
    ]);
  });

  it('reports dns_unavailable for a host name when the DNS server is dead', async () => {
    const dead = createResolver({
      servers: [await closedPortAddress()],
      timeoutMs: 200,
      retries: 0,
    });
    expect(await checkIp(depsOver(dead), target('mail.sender.net'))).toMatchObject({
      ok: false,
      error: 'dns_unavailable',
    });
  });

  it('reports dns_unavailable for an address when the DNS server is dead, rather than a result', async () => {
    const dead = createResolver({
      servers: [await closedPortAddress()],
      timeoutMs: 200,
      retries: 0,
    });
    const start = performance.now();
    const outcome = await checkIp(depsOver(dead, 1000), target(listedIp));
    expect(outcome).toMatchObject({ ok: false, error: 'dns_unavailable' });
    expect(performance.now() - start).toBeLessThan(1000 + 250);
  });

  it('still gives a result when only some lists do not answer in time', async () => {
    const slow = memoryWorld([
      ...dnsblWorld(zones, {}).map((zone) =>
        zone.origin === 'bl.spamcop.net' ? { ...zone, behaviour: 'drop' as const } : zone,
      ),
      ...hostZones,
    ]);
    try {
      const start = performance.now();
      const outcome = await checkIp(depsOver(freshResolver(slow, 5000), 300), target(cleanIp));
      const elapsed = performance.now() - start;
      const result = resultOf(outcome);
      expect(elapsed).toBeLessThan(300 + 250);
      expect(result.ip_score).toMatchObject({ answered: ipZones.length - 1, confidence: 'high' });
      expect(result.ip_score.lists.find((list) => list.zone === 'bl.spamcop.net')?.status).toBe(
        'timeout',
      );
    } finally {
      slow.close();
    }
  });
});

describe('the speed of a check', () => {
  const latencyMs = 20;
  const samples = 7;
  let slow: MemoryDns;
  const addresses = Array.from({ length: samples + 1 }, (_, i) => `8.8.${150 + i}.1`);

  beforeAll(async () => {
    // Every zone, the DNSBLs as well as the PTR and forward zones, answers after 20 ms.
    const reverseAndForward: FixtureZone[] = addresses.flatMap((address, i) => {
      const [a, b, c] = address.split('.');
      return [
        {
          origin: `${c}.${b}.${a}.in-addr.arpa`,
          records: { [`1.${c}.${b}.${a}.in-addr.arpa`]: { PTR: [`mail${i}.speed.net`] } },
        },
      ];
    });
    const forward: FixtureZone = {
      origin: 'speed.net',
      records: Object.fromEntries(
        addresses.map((address, i) => [`mail${i}.speed.net`, { A: [address] }]),
      ),
    };
    slow = memoryWorld([...dnsblWorld(zones, {}), ...reverseAndForward, forward], latencyMs);
  });

  afterAll(() => slow.close());

  it('takes about two round trips (lists in parallel with PTR then A), not one per list', async () => {
    const deps = depsOver(freshResolver(slow), 4000);
    // One check first: code paths warm.
    resultOf(await checkIp(deps, target(addresses[0]!)));
    const times: number[] = [];
    for (const address of addresses.slice(1)) {
      const start = performance.now();
      const result = resultOf(await checkIp(deps, target(address)));
      times.push(performance.now() - start);
      // Every list answered and FCrDNS went through: nothing was cut short by the deadline.
      expect(result.ip_score.answered).toBe(ipZones.length);
      expect(result.ip_score.rdns.fcrdns).toBe('pass');
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const oneRoundTripPerList = ipZones.length * latencyMs;
    console.log(
      `checkIp over ${ipZones.length} IP lists at ${latencyMs} ms latency: median ${median.toFixed(1)} ms ` +
        `(${(median / latencyMs).toFixed(2)} round trips; min ${sorted[0]!.toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)}; ` +
        `one round trip per list would be ${oneRoundTripPerList} ms)`,
    );
    expect(median).toBeGreaterThanOrEqual(2 * latencyMs - 2);
    expect(median).toBeLessThan(oneRoundTripPerList / 3);
  });
});

describe('checkIp, IPv6', () => {
  const ipv6Zones = ipZones.filter((zone) => zone.ipv6 !== undefined);

  it('asks only the lists that cover IPv6, in nibble format under their IPv6 zones (RFC 5782 §2.4)', async () => {
    const before = dns.queries.length;
    const result = resultOf(await checkIp(depsOver(freshResolver()), target(listedIp6)));
    const asked = dns.queries.slice(before).filter((query) => query.type === 'A');
    expect(asked.map((query) => query.name).sort()).toEqual(
      ipv6Zones.map((zone) => `${nibbles(listedIp6)}.${sideZone(zone, 'ipv6')}`).sort(),
    );
    expect(asked.map((query) => query.name)).toContain(
      `${nibbles(listedIp6)}.bl.ipv6.spameatingmonkey.net`,
    );
    expect(result).toMatchObject({
      kind: 'ipv6',
      target: listedIp6,
      ip: listedIp6,
      ptr: 'mail6.sender6.net',
      ip_score: {
        listed: 2,
        answered: ipv6Zones.length,
        total: ipv6Zones.length,
        not_covered: ipZones.length - ipv6Zones.length,
        disabled: 0,
        confidence: 'high',
        verdict: 'poor',
        summary: `listed on 2 of ${ipv6Zones.length} lists; ${ipZones.length - ipv6Zones.length} do not cover IPv6`,
        rdns: { fcrdns: 'pass', confirmed: ['mail6.sender6.net'] },
      },
    });
    const sem = result.ip_score.lists.find((list) => list.name.includes('SEM-IPV6BL'));
    expect(sem).toMatchObject({ zone: 'bl.ipv6.spameatingmonkey.net', status: 'listed' });
    expect(result.ip_score.lists.find((list) => list.zone === 'zen.spamhaus.org')).toMatchObject({
      status: 'listed',
      listings: [{ code: '127.0.0.3' }],
    });
  });

  it('shows every list without IPv6 support as "does not cover IPv6", never clean', async () => {
    const result = resultOf(await checkIp(depsOver(freshResolver()), target(cleanIp6)));
    const uncovered = result.ip_score.lists.filter((list) => list.not_covered);
    expect(uncovered).toHaveLength(ipZones.length - ipv6Zones.length);
    for (const list of uncovered) {
      expect(list).toMatchObject({ status: 'disabled', error: 'does not cover IPv6' });
    }
    expect(result.ip_score).toMatchObject({
      listed: 0,
      answered: ipv6Zones.length,
      total: ipv6Zones.length,
      summary: `not listed on any of ${ipv6Zones.length} lists; ${ipZones.length - ipv6Zones.length} do not cover IPv6`,
    });
    expect(result.ip_score.lists).toHaveLength(ipZones.length);
  });

  it('takes any RFC 4291 form and checks the RFC 5952 canonical one', async () => {
    const result = resultOf(
      await checkIp(depsOver(freshResolver()), target('2A01:04F8:0C17:0001:0:0:0:25')),
    );
    expect(result).toMatchObject({ kind: 'ipv6', target: listedIp6, ip: listedIp6 });
  });

  it('looks the PTR up under ip6.arpa and confirms it through AAAA, not A', async () => {
    const before = dns.queries.length;
    const result = resultOf(await checkIp(depsOver(freshResolver()), target(cleanIp6)));
    const asked = dns.queries.slice(before).filter((query) => query.type !== 'A');
    expect(asked).toEqual([
      { name: `${nibbles(cleanIp6)}.ip6.arpa`, type: 'PTR' },
      { name: 'liar6.sender6.net', type: 'AAAA' },
    ]);
    expect(result.ip_score.rdns).toMatchObject({
      ptr: 'liar6.sender6.net',
      fcrdns: 'fail',
      confirmed: [],
    });
  });

  it('checks the first IPv6 address of a host name that has no IPv4 address', async () => {
    const result = resultOf(await checkIp(depsOver(freshResolver()), target('only6.sender6.net')));
    expect(result).toMatchObject({ kind: 'domain', target: 'only6.sender6.net', ip: listedIp6 });
    expect(result.ip_score.addresses).toEqual([listedIp6, cleanIp6]);
  });

  it('checks the IPv4 address of a host name that has both, and lists both', async () => {
    const result = resultOf(await checkIp(depsOver(freshResolver()), target('dual.sender6.net')));
    expect(result).toMatchObject({ kind: 'domain', ip: cleanIp });
    expect(result.ip_score.addresses).toEqual([cleanIp, listedIp6]);
    expect(result.ip_score.not_covered).toBe(0);
  });
});
