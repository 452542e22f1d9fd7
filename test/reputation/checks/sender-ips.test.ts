import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSenderIps, maxMxHosts } from '../../../src/reputation/checks/sender-ips.js';
import type { FixtureRecords, FixtureZone } from '../../../fixtures/dns-server.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';

let world: MemoryDns;

beforeAll(async () => {
  world = memoryWorld();
});

afterAll(async () => {
  await world.close();
});

/** Serves `records` in a zone `test` (plus `zones`), and a fresh resolver with an empty cache. */
function serve(records: Record<string, FixtureRecords>, zones: FixtureZone[] = []) {
  world.setZones([{ origin: 'net', records }, ...zones]);
  return memoryResolver(world, 300);
}

describe('discoverSenderIps', () => {
  it('joins the SPF senders and the MX hosts, sorted numerically without duplicates', async () => {
    const resolver = serve({
      'example.net': {
        TXT: ['v=spf1 ip4:203.0.114.10 a:out.example.net -all'],
        MX: [
          { exchange: 'mx2.example.net', priority: 20 },
          { exchange: 'mx1.example.net', priority: 10 },
        ],
      },
      'out.example.net': { A: ['192.0.3.20'] },
      'mx1.example.net': { A: ['192.0.3.100'] },
      'mx2.example.net': { A: ['192.0.3.20'] },
    });
    const result = await discoverSenderIps(resolver, 'Example.net');
    expect(result).toMatchObject({
      domain: 'example.net',
      ips: ['192.0.3.20', '192.0.3.100', '203.0.114.10'],
      ipsTotal: 3,
      ranges: [],
      rangesTotal: 0,
      mx: [
        { exchange: 'mx1.example.net', priority: 10, addresses: ['192.0.3.100'] },
        { exchange: 'mx2.example.net', priority: 20, addresses: ['192.0.3.20'] },
      ],
      implicitMx: false,
      spf: { status: 'found', ip4: ['203.0.114.10', '192.0.3.20'] },
      lookupFailures: [],
    });
  });

  it('finds the senders through the MX hosts of a domain without SPF record', async () => {
    const resolver = serve({
      'example.net': { MX: [{ exchange: 'mail.provider.net', priority: 0 }] },
      'mail.provider.net': { A: ['198.51.101.25', '198.51.101.24'] },
    });
    const result = await discoverSenderIps(resolver, 'example.net');
    expect(result).toMatchObject({
      ips: ['198.51.101.24', '198.51.101.25'],
      spf: { status: 'none', ip4: [] },
      implicitMx: false,
    });
  });

  it('takes the domain own address as its implicit MX when it has no MX records', async () => {
    const resolver = serve({ 'example.net': { A: ['198.51.101.5'] } });
    const result = await discoverSenderIps(resolver, 'example.net');
    expect(result).toMatchObject({
      ips: ['198.51.101.5'],
      mx: [{ exchange: 'example.net', priority: 0, addresses: ['198.51.101.5'] }],
      implicitMx: true,
    });
  });

  it('lists a null MX as "." with no addresses, and no implicit MX', async () => {
    const resolver = serve({
      'example.net': {
        TXT: ['v=spf1 ip4:192.0.3.1 -all'],
        MX: [{ exchange: '', priority: 0 }],
        A: ['198.51.101.5'],
      },
    });
    const result = await discoverSenderIps(resolver, 'example.net');
    expect(result).toMatchObject({
      ips: ['192.0.3.1'],
      mx: [{ exchange: '.', priority: 0, addresses: [] }],
      implicitMx: false,
    });
  });

  it('finds nothing for a nonexistent domain, no more than for one with no records', async () => {
    const resolver = serve({ 'empty.example.net': { TXT: ['not spf'] } });
    const [gone, empty] = await Promise.all([
      discoverSenderIps(resolver, 'gone.net'),
      discoverSenderIps(resolver, 'empty.example.net'),
    ]);
    for (const result of [gone, empty]) {
      expect(result).toMatchObject({
        ips: [],
        ipsTotal: 0,
        ranges: [],
        rangesTotal: 0,
        mx: [],
        mxTotal: 0,
        implicitMx: false,
        spf: expect.objectContaining({ status: 'none', ip4: [] }),
        dmarc: { status: 'none', present: false, record: null, policy: null },
        lookupFailures: [],
      });
    }
  });

  it('leaves out every address that is not public: the A fallback, MX hosts and SPF terms', async () => {
    const resolver = serve({
      // Split-horizon data: a public-looking zone whose names point into a private network.
      'vault.corp.example.net': {
        TXT: ['v=spf1 ip4:10.1.0.0/16 ip4:127.0.0.1 a:db.example.net -all'],
        A: ['10.20.30.40'],
      },
      'db.example.net': { A: ['192.168.1.5'] },
      'inside.example.net': {
        MX: [
          { exchange: 'kubernetes.default.svc.cluster.local', priority: 10 },
          { exchange: 'localhost', priority: 20 },
          { exchange: 'metadata.google.internal', priority: 30 },
          { exchange: 'meta.example.net', priority: 40 },
        ],
      },
      'meta.example.net': { A: ['169.254.169.254', '100.64.0.1'] },
    });
    const before = world.queries.length;
    const vault = await discoverSenderIps(resolver, 'vault.corp.example.net');
    expect(vault).toMatchObject({ ips: [], ipsTotal: 0, ranges: [], rangesTotal: 0, mx: [] });
    const inside = await discoverSenderIps(resolver, 'inside.example.net');
    expect(inside).toMatchObject({ ips: [], ipsTotal: 0, ranges: [], rangesTotal: 0 });
    expect(inside.mx).toEqual([
      { exchange: 'kubernetes.default.svc.cluster.local', priority: 10, addresses: [] },
      { exchange: 'localhost', priority: 20, addresses: [] },
      { exchange: 'metadata.google.internal', priority: 30, addresses: [] },
      { exchange: 'meta.example.net', priority: 40, addresses: [] },
    ]);
    // The special-use names were never asked.
    const asked = world.queries.slice(before).map((query) => query.name);
    expect(asked).toContain('meta.example.net');
    expect(asked).not.toContain('kubernetes.default.svc.cluster.local');
    expect(asked).not.toContain('localhost');
    expect(asked).not.toContain('metadata.google.internal');
  });

  it(`looks up the ${maxMxHosts} most preferred MX hosts only, and counts them all`, async () => {
    const exchangers = Array.from({ length: 40 }, (_, index) => ({
      exchange: `mx${index}.many.example.net`,
      priority: 100 - index,
    }));
    const records: Record<string, FixtureRecords> = { 'many.example.net': { MX: exchangers } };
    exchangers.forEach(({ exchange }, index) => {
      records[exchange] = { A: [`198.51.101.${index + 1}`] };
    });
    const resolver = serve(records);
    const before = world.queries.length;
    const result = await discoverSenderIps(resolver, 'many.example.net');
    expect(result.mxTotal).toBe(40);
    // Lowest preference first: mx39 (priority 61) down to mx30 (priority 70).
    expect(result.mx.map((host) => host.exchange)).toEqual(
      Array.from({ length: 10 }, (_, index) => `mx${39 - index}.many.example.net`),
    );
    expect(result.ips).toEqual(Array.from({ length: 10 }, (_, i) => `198.51.101.${31 + i}`));
    const hostLookups = world.queries
      .slice(before)
      .filter((query) => query.name.startsWith('mx') && query.type === 'A');
    expect(hostLookups).toHaveLength(10);
  });

  it('writes a /28 out as its 16 addresses and lists a /24 apart as a range, with its size', async () => {
    const resolver = serve({
      'example.net': {
        TXT: ['v=spf1 ip4:198.51.101.0/24 ip4:192.0.3.16/28 -all'],
        MX: [{ exchange: 'mx.example.net', priority: 10 }],
      },
      'mx.example.net': { A: ['192.0.3.200'] },
    });
    const result = await discoverSenderIps(resolver, 'example.net');
    expect(result.ips).toEqual([
      ...Array.from({ length: 16 }, (_, index) => `192.0.3.${16 + index}`),
      '192.0.3.200',
    ]);
    expect(result).toMatchObject({
      ipsTotal: 17,
      ranges: [{ network: '198.51.101.0/24', size: 256 }],
      rangesTotal: 1,
    });
  });

  it.each([
    ['v=DMARC1; p=reject; rua=mailto:d@example.net', { present: true, policy: 'reject' }],
    ['v=DMARC1;p=quarantine;pct=50', { present: true, policy: 'quarantine' }],
    ['v = DMARC1 ; p = None', { present: true, policy: 'none' }],
    // RFC 7489 §6.6.3: no valid p, but a valid rua: read as p=none.
    ['v=DMARC1; rua=mailto:d@example.net', { present: true, policy: 'none' }],
    ['v=DMARC1; p=block', { status: 'invalid', present: true, policy: null }],
    ['v=dmarc1; p=reject', { status: 'none', present: false, policy: null }],
    ['p=reject; v=DMARC1', { status: 'none', present: false, policy: null }],
  ])('reads the DMARC record %s', async (record, expected) => {
    const resolver = serve({ '_dmarc.example.net': { TXT: ['other', record] } });
    const { dmarc } = await discoverSenderIps(resolver, 'example.net');
    expect(dmarc).toMatchObject({
      status: 'found',
      record: expected.present ? record : null,
      ...expected,
    });
  });

  it('falls back to the organisational domain DMARC record for a subdomain without one, and says so', async () => {
    const resolver = serve({
      '_dmarc.example.net': { TXT: ['v=DMARC1; p=reject; sp=quarantine'] },
      '_dmarc.own.example.net': { TXT: ['v=DMARC1; p=none'] },
    });
    const [sub, own, apex] = await Promise.all([
      discoverSenderIps(resolver, 'mail.example.net'),
      discoverSenderIps(resolver, 'own.example.net'),
      discoverSenderIps(resolver, 'example.net'),
    ]);
    expect(sub.dmarc).toMatchObject({
      status: 'found',
      policy: 'quarantine',
      applied: 'organizational',
      domain: 'example.net',
    });
    expect(own.dmarc).toMatchObject({
      policy: 'none',
      applied: 'domain',
      domain: 'own.example.net',
    });
    expect(apex.dmarc).toMatchObject({
      policy: 'reject',
      applied: 'domain',
      domain: 'example.net',
    });
  });

  it('treats two DMARC records as no policy', async () => {
    const resolver = serve({
      '_dmarc.example.net': { TXT: ['v=DMARC1; p=reject', 'v=DMARC1; p=none'] },
    });
    expect((await discoverSenderIps(resolver, 'example.net')).dmarc).toEqual({
      status: 'multiple',
      present: false,
      record: null,
      policy: null,
      applied: null,
      domain: null,
      errors: [],
      warnings: [],
    });
  });

  it('asks SPF, MX, A and DMARC at once', async () => {
    const resolver = serve({}, [
      {
        origin: 'slowish.net',
        latencyMs: 150,
        records: {
          'slowish.net': {
            TXT: ['v=spf1 ip4:192.0.3.1 -all'],
            MX: [{ exchange: 'mx.slowish.net', priority: 10 }],
          },
          'mx.slowish.net': { A: ['192.0.3.2'] },
          '_dmarc.slowish.net': { TXT: ['v=DMARC1; p=reject'] },
        },
      },
    ]);
    const start = performance.now();
    const result = await discoverSenderIps(resolver, 'slowish.net');
    // Two round trips (the MX hosts' addresses wait for the MX answer); in a row, five.
    expect(performance.now() - start).toBeLessThan(500);
    expect(result).toMatchObject({ ips: ['192.0.3.1', '192.0.3.2'], dmarc: { policy: 'reject' } });
  });

  it('reports the lookups that failed, and what the domain SPF evaluation made of it', async () => {
    const resolver = serve({}, [{ origin: 'broken.net', behaviour: 'servfail' }]);
    const result = await discoverSenderIps(resolver, 'broken.net');
    expect(result).toMatchObject({
      ips: [],
      mx: [],
      spf: { status: 'unavailable', error: { kind: 'temperror' } },
      dmarc: { status: 'unavailable', present: false },
    });
    expect(result.lookupFailures).toEqual(
      expect.arrayContaining([
        { name: 'broken.net', type: 'MX', status: 'servfail' },
        { name: 'broken.net', type: 'A', status: 'servfail' },
        { name: '_dmarc.broken.net', type: 'TXT', status: 'servfail' },
      ]),
    );
  });

  it('lists an MX host whose address lookup times out with no addresses, and says so', async () => {
    const resolver = serve(
      {
        'example.net': {
          MX: [
            { exchange: 'mx.example.net', priority: 10 },
            { exchange: 'mx.slow.net', priority: 20 },
          ],
        },
        'mx.example.net': { A: ['192.0.3.10'] },
      },
      [{ origin: 'slow.net', behaviour: 'drop' }],
    );
    const result = await discoverSenderIps(resolver, 'example.net', { deadlineMs: 2000 });
    expect(result).toMatchObject({
      ips: ['192.0.3.10'],
      mx: [
        { exchange: 'mx.example.net', addresses: ['192.0.3.10'] },
        { exchange: 'mx.slow.net', addresses: [] },
      ],
      lookupFailures: [
        { name: 'mx.slow.net', type: 'A', status: 'timeout' },
        { name: 'mx.slow.net', type: 'AAAA', status: 'timeout' },
      ],
    });
  });

  describe('IPv6 senders', () => {
    it('writes out SPF ip6 terms of up to 16 addresses into ips, after IPv4, and keeps larger ones as IPv6 ranges', async () => {
      const resolver = serve({
        'example.net': {
          TXT: [
            'v=spf1 ip4:203.0.114.10 ip6:2A01:4F8:0:0::25 ip6:2a01:4f8:1::/126 ip6:2a00:1450::/32 ' +
              'ip6:fd00::/8 ip6:2001:db8::1 ~all',
          ],
        },
      });
      const result = await discoverSenderIps(resolver, 'example.net');
      expect(result).toMatchObject({
        ips: [
          '203.0.114.10',
          '2a01:4f8::25',
          '2a01:4f8:1::',
          '2a01:4f8:1::1',
          '2a01:4f8:1::2',
          '2a01:4f8:1::3',
        ],
        ipsTotal: 6,
        ip6Ranges: ['2a00:1450::/32'],
        ip6RangesTotal: 1,
      });
    });

    it('takes the AAAA records of the MX hosts and of the domain itself as senders, public ones only', async () => {
      const resolver = serve({
        'example.net': {
          MX: [{ exchange: 'mx.example.net', priority: 10 }],
          AAAA: ['2a01:4f8:2::1'],
        },
        'mx.example.net': {
          A: ['192.0.3.10'],
          AAAA: ['2a01:4f8:2::25', '::ffff:10.0.0.1', 'fe80::25', '2002:a00:1::25'],
        },
      });
      const result = await discoverSenderIps(resolver, 'example.net');
      expect(result).toMatchObject({
        ips: ['192.0.3.10', '2a01:4f8:2::25'],
        mx: [{ exchange: 'mx.example.net', addresses: ['192.0.3.10', '2a01:4f8:2::25'] }],
      });
    });

    it('takes an IPv6-only domain without MX as its own implicit MX (RFC 5321 §5.1)', async () => {
      const resolver = serve({ 'example.net': { AAAA: ['2a01:4f8:2::1'] } });
      const result = await discoverSenderIps(resolver, 'example.net');
      expect(result).toMatchObject({
        ips: ['2a01:4f8:2::1'],
        mx: [{ exchange: 'example.net', priority: 0, addresses: ['2a01:4f8:2::1'] }],
        implicitMx: true,
      });
    });

    it('takes the AAAA records of SPF a and mx terms, widened to their IPv6 prefix (RFC 7208 §5.6)', async () => {
      const resolver = serve({
        'example.net': { TXT: ['v=spf1 a:out.example.net//124 mx:relay.example.net -all'] },
        'out.example.net': { A: ['192.0.3.20'], AAAA: ['2a01:4f8:3::17'] },
        'relay.example.net': { MX: [{ exchange: 'mx.relay.example.net', priority: 5 }] },
        'mx.relay.example.net': { A: ['192.0.3.30'], AAAA: ['2a01:4f8:4::1'] },
      });
      const result = await discoverSenderIps(resolver, 'example.net');
      expect(result.ips).toEqual([
        '192.0.3.20',
        '192.0.3.30',
        ...Array.from({ length: 16 }, (_, i) => `2a01:4f8:3::${(0x10 + i).toString(16)}`),
        '2a01:4f8:4::1',
      ]);
      expect([...result.spf.ip6].sort()).toEqual(['2a01:4f8:3::10/124', '2a01:4f8:4::1']);
    });
  });
});
