import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/dns/index.js';
import { discoverSenderIps, senderIpList } from '../../src/reputation/sender-ips.js';
import {
  type FixtureDnsServer,
  type FixtureRecords,
  type FixtureZone,
  startFixtureDnsServer,
} from '../fixtures/dns-server.js';

let server: FixtureDnsServer;

beforeAll(async () => {
  server = await startFixtureDnsServer({ zones: [] });
});

afterAll(async () => {
  await server.close();
});

/** Serves `records` in a zone `test` (plus `zones`), and a fresh resolver with an empty cache. */
function serve(records: Record<string, FixtureRecords>, zones: FixtureZone[] = []) {
  server.setZones([{ origin: 'test', records }, ...zones]);
  return createResolver({ servers: [server.address], timeoutMs: 300, retries: 0 });
}

describe('senderIpList', () => {
  it.each([
    { entries: [], ips: [] },
    {
      entries: ['192.0.2.100', '192.0.2.20', '10.0.0.1'],
      ips: ['10.0.0.1', '192.0.2.20', '192.0.2.100'],
    },
    { entries: ['192.0.2.7', '192.0.2.7', '192.0.2.6/31'], ips: ['192.0.2.6', '192.0.2.7'] },
    {
      entries: ['198.51.100.0/27', '198.51.100.0', '198.51.99.255', '198.51.100.0/24'],
      ips: ['198.51.99.255', '198.51.100.0/24', '198.51.100.0/27', '198.51.100.0'],
    },
    { entries: ['192.0.2.77/30'], ips: ['192.0.2.76', '192.0.2.77', '192.0.2.78', '192.0.2.79'] },
    { entries: ['0.0.0.0/0', '192.0.2.1'], ips: ['0.0.0.0/0', '192.0.2.1'] },
  ])('lists $entries as $ips', ({ entries, ips }) => {
    expect(senderIpList(entries)).toEqual(ips);
  });
});

describe('discoverSenderIps', () => {
  it('joins the SPF senders and the MX hosts, sorted numerically without duplicates', async () => {
    const resolver = serve({
      'example.test': {
        TXT: ['v=spf1 ip4:203.0.113.10 a:out.example.test -all'],
        MX: [
          { exchange: 'mx2.example.test', priority: 20 },
          { exchange: 'mx1.example.test', priority: 10 },
        ],
      },
      'out.example.test': { A: ['192.0.2.20'] },
      'mx1.example.test': { A: ['192.0.2.100'] },
      'mx2.example.test': { A: ['192.0.2.20'] },
    });
    const result = await discoverSenderIps(resolver, 'Example.test');
    expect(result).toMatchObject({
      domain: 'example.test',
      exists: true,
      ips: ['192.0.2.20', '192.0.2.100', '203.0.113.10'],
      mx: [
        { exchange: 'mx1.example.test', priority: 10, addresses: ['192.0.2.100'] },
        { exchange: 'mx2.example.test', priority: 20, addresses: ['192.0.2.20'] },
      ],
      implicitMx: false,
      spf: { status: 'found', ip4: ['203.0.113.10', '192.0.2.20'] },
      lookupFailures: [],
    });
  });

  it('finds the senders through the MX hosts of a domain without SPF record', async () => {
    const resolver = serve({
      'example.test': { MX: [{ exchange: 'mail.provider.test', priority: 0 }] },
      'mail.provider.test': { A: ['198.51.100.25', '198.51.100.24'] },
    });
    const result = await discoverSenderIps(resolver, 'example.test');
    expect(result).toMatchObject({
      ips: ['198.51.100.24', '198.51.100.25'],
      spf: { status: 'none', ip4: [] },
      implicitMx: false,
    });
  });

  it('takes the domain own address as its implicit MX when it has no MX records', async () => {
    const resolver = serve({ 'example.test': { A: ['198.51.100.5'] } });
    const result = await discoverSenderIps(resolver, 'example.test');
    expect(result).toMatchObject({
      exists: true,
      ips: ['198.51.100.5'],
      mx: [{ exchange: 'example.test', priority: 0, addresses: ['198.51.100.5'] }],
      implicitMx: true,
    });
  });

  it('lists a null MX as "." with no addresses, and no implicit MX', async () => {
    const resolver = serve({
      'example.test': {
        TXT: ['v=spf1 ip4:192.0.2.1 -all'],
        MX: [{ exchange: '', priority: 0 }],
        A: ['198.51.100.5'],
      },
    });
    const result = await discoverSenderIps(resolver, 'example.test');
    expect(result).toMatchObject({
      ips: ['192.0.2.1'],
      mx: [{ exchange: '.', priority: 0, addresses: [] }],
      implicitMx: false,
    });
  });

  it('says a nonexistent domain does not exist, with no IPs', async () => {
    const result = await discoverSenderIps(serve({}), 'gone.test');
    expect(result).toEqual({
      domain: 'gone.test',
      exists: false,
      ips: [],
      mx: [],
      implicitMx: false,
      spf: expect.objectContaining({ status: 'none', ip4: [] }),
      dmarc: { status: 'none', present: false, record: null, policy: null },
      lookupFailures: [],
    });
  });

  it('writes a /28 out as its 16 addresses and keeps a /24 as a CIDR', async () => {
    const resolver = serve({
      'example.test': {
        TXT: ['v=spf1 ip4:198.51.100.0/24 ip4:192.0.2.16/28 -all'],
        MX: [{ exchange: 'mx.example.test', priority: 10 }],
      },
      'mx.example.test': { A: ['192.0.2.200'] },
    });
    const result = await discoverSenderIps(resolver, 'example.test');
    expect(result.ips).toEqual([
      ...Array.from({ length: 16 }, (_, index) => `192.0.2.${16 + index}`),
      '192.0.2.200',
      '198.51.100.0/24',
    ]);
  });

  it('sorts by network then prefix, and keeps an address named inside a listed range', async () => {
    const resolver = serve({
      'example.test': {
        TXT: ['v=spf1 ip4:203.0.113.0/24 ip4:192.0.2.9 ip4:198.51.100.0/25 a -all'],
        A: ['203.0.113.0', '203.0.113.45'],
        MX: [{ exchange: 'mx.example.test', priority: 10 }],
      },
      'mx.example.test': { A: ['203.0.113.45', '198.51.100.2'] },
    });
    const result = await discoverSenderIps(resolver, 'example.test');
    expect(result.ips).toEqual([
      '192.0.2.9',
      '198.51.100.0/25',
      '198.51.100.2',
      '203.0.113.0/24',
      '203.0.113.0',
      '203.0.113.45',
    ]);
  });

  it.each([
    ['v=DMARC1; p=reject; rua=mailto:d@example.test', { present: true, policy: 'reject' }],
    ['v=DMARC1;p=quarantine;pct=50', { present: true, policy: 'quarantine' }],
    ['v = DMARC1 ; p = None', { present: true, policy: 'none' }],
    ['v=DMARC1; rua=mailto:d@example.test', { present: true, policy: null }],
    ['v=DMARC1; p=block', { present: true, policy: null }],
    ['v=dmarc1; p=reject', { status: 'none', present: false, policy: null }],
    ['p=reject; v=DMARC1', { status: 'none', present: false, policy: null }],
  ])('reads the DMARC record %s', async (record, expected) => {
    const resolver = serve({ '_dmarc.example.test': { TXT: ['other', record] } });
    const { dmarc } = await discoverSenderIps(resolver, 'example.test');
    expect(dmarc).toMatchObject({
      status: 'found',
      record: expected.present ? record : null,
      ...expected,
    });
  });

  it('treats two DMARC records as no policy', async () => {
    const resolver = serve({
      '_dmarc.example.test': { TXT: ['v=DMARC1; p=reject', 'v=DMARC1; p=none'] },
    });
    expect((await discoverSenderIps(resolver, 'example.test')).dmarc).toEqual({
      status: 'multiple',
      present: false,
      record: null,
      policy: null,
    });
  });

  it('asks SPF, MX, A and DMARC at once', async () => {
    const resolver = serve({}, [
      {
        origin: 'slowish.test',
        latencyMs: 150,
        records: {
          'slowish.test': {
            TXT: ['v=spf1 ip4:192.0.2.1 -all'],
            MX: [{ exchange: 'mx.slowish.test', priority: 10 }],
          },
          'mx.slowish.test': { A: ['192.0.2.2'] },
          '_dmarc.slowish.test': { TXT: ['v=DMARC1; p=reject'] },
        },
      },
    ]);
    const start = performance.now();
    const result = await discoverSenderIps(resolver, 'slowish.test');
    // Two round trips (the MX hosts' addresses wait for the MX answer); in a row, five.
    expect(performance.now() - start).toBeLessThan(500);
    expect(result).toMatchObject({ ips: ['192.0.2.1', '192.0.2.2'], dmarc: { policy: 'reject' } });
  });

  it('reports the lookups that failed, and what the domain SPF evaluation made of it', async () => {
    const resolver = serve({}, [{ origin: 'broken.test', behaviour: 'servfail' }]);
    const result = await discoverSenderIps(resolver, 'broken.test');
    expect(result).toMatchObject({
      exists: true,
      ips: [],
      mx: [],
      spf: { status: 'unavailable', error: { kind: 'temperror' } },
      dmarc: { status: 'unavailable', present: false },
    });
    expect(result.lookupFailures).toEqual(
      expect.arrayContaining([
        { name: 'broken.test', type: 'MX', status: 'servfail' },
        { name: 'broken.test', type: 'A', status: 'servfail' },
        { name: '_dmarc.broken.test', type: 'TXT', status: 'servfail' },
      ]),
    );
  });

  it('lists an MX host whose address lookup times out with no addresses, and says so', async () => {
    const resolver = serve(
      {
        'example.test': {
          MX: [
            { exchange: 'mx.example.test', priority: 10 },
            { exchange: 'mx.slow.test', priority: 20 },
          ],
        },
        'mx.example.test': { A: ['192.0.2.10'] },
      },
      [{ origin: 'slow.test', behaviour: 'drop' }],
    );
    const result = await discoverSenderIps(resolver, 'example.test', { deadlineMs: 2000 });
    expect(result).toMatchObject({
      ips: ['192.0.2.10'],
      mx: [
        { exchange: 'mx.example.test', addresses: ['192.0.2.10'] },
        { exchange: 'mx.slow.test', addresses: [] },
      ],
      lookupFailures: [{ name: 'mx.slow.test', type: 'A', status: 'timeout' }],
    });
  });
});
