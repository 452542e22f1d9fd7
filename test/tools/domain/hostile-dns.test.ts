import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../../src/reputation/index.js';
import type { FixtureRecords, FixtureZone } from '../../../fixtures/dns-server.js';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import {
  type TestService,
  expectError,
  postError,
  startTestService,
} from '../../support/service.js';
import type { DomainCheckAnswer, IpCheckAnswer } from '../../support/responses.js';

/**
 * The hostile DNS data of docs/checks.md, each case reproduced over real HTTP against DNS data a
 * hostile caller can publish: names that point into the service's own network, a thousand MX
 * hosts whose look-ups are dropped, and a 60 KB SPF record; and answers forged on the wire.
 * DNS_TIMEOUT_MS is 1 s here, so a query that is never answered holds its in-flight slot a full
 * second unless the check gives it up.
 */

/** The finding's flood: 1,260 MX hosts in a zone that never answers. */
const floodHosts = 1260;

/** 3,000 `ip4:/28` terms: the finding's 60 KB record, 48,000 addresses. */
function giantSpfRecord(): string {
  const terms = Array.from(
    { length: 3000 },
    (_, i) => `ip4:185.${100 + Math.floor(i / 256)}.${i % 256}.0/28`,
  );
  return `v=spf1 ${terms.join(' ')} -all`;
}

/** Every kind of list a result holds, each far past its bound, in one record of about 50 KB. */
function sprawlingSpfRecord(): string {
  const terms = [
    ...Array.from({ length: 800 }, (_, i) => `ip4:186.${Math.floor(i / 256)}.${i % 256}.0/28`),
    ...Array.from({ length: 400 }, (_, i) => `ip4:187.${Math.floor(i / 256)}.${i % 256}.0/24`),
    ...Array.from({ length: 400 }, (_, i) => `ip6:2a00:${(i + 4096).toString(16)}::/48`),
    ...Array.from({ length: 400 }, (_, i) => `~ip4:188.0.${Math.floor(i / 256)}.${i % 256}`),
  ];
  return `v=spf1 ${terms.join(' ')} -all`;
}

const floodMx = Array.from({ length: floodHosts }, (_, i) => ({
  exchange: `h${i}.flood-sink.net`,
  priority: 10 + (i % 50),
}));

const senders: Record<string, FixtureRecords> = {
  // Names in public-looking zones that resolve into a private network (split horizon).
  'vault.corp.example-internal.com': { A: ['10.20.30.40'] },
  'mx-inward.com': {
    MX: [
      { exchange: 'kubernetes.default.svc.cluster.local', priority: 10 },
      { exchange: 'localhost', priority: 20 },
      { exchange: 'metadata.google.internal', priority: 30 },
    ],
  },
  'spf-inward.com': {
    TXT: ['v=spf1 a:db.spf-inward.com mx:cluster.local include:x.internal -all'],
  },
  'db.spf-inward.com': { A: ['10.0.0.7'] },
  'partly-inward.com': {
    TXT: ['v=spf1 ip4:185.99.0.1 a:db.partly-inward.com ip4:10.9.0.0/16 -all'],
    MX: [{ exchange: 'mail.partly-inward.com', priority: 10 }],
  },
  'db.partly-inward.com': { A: ['192.168.7.7'] },
  'mail.partly-inward.com': { A: ['185.99.0.2', '127.0.0.1'] },
  'flood-sender.com': { MX: floodMx },
  'giant-sender.com': { TXT: [giantSpfRecord()] },
  'sprawling-sender.com': {
    TXT: [sprawlingSpfRecord()],
    MX: [{ exchange: 'mail.sprawling-sender.com', priority: 10 }],
  },
  'mail.sprawling-sender.com': {
    A: Array.from({ length: 100 }, (_, i) => `189.0.0.${i + 1}`),
  },
};

const zones: FixtureZone[] = [
  { origin: 'com', records: senders },
  { origin: 'flood-sink.net', behaviour: 'drop' },
  // What a resolver inside a cluster or a cloud answers for these names. Were they asked, the
  // service would learn these addresses, and it once stored them
  // (docs/checks.md#no-internal-dns-oracle).
  {
    origin: 'local',
    records: { 'kubernetes.default.svc.cluster.local': { A: ['10.96.0.1'] } },
    wildcard: { A: ['10.96.0.2'], TXT: ['v=spf1 ip4:10.96.0.3 -all'] },
  },
  {
    origin: 'internal',
    records: { 'metadata.google.internal': { A: ['169.254.169.254'] } },
    wildcard: { A: ['10.128.0.9'], TXT: ['v=spf1 ip4:10.128.0.10 -all'] },
  },
  { origin: 'localhost', records: { localhost: { A: ['127.0.0.1'] } } },
];

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ zones, env: { DNS_TIMEOUT_MS: '1000' } });
});
afterAll(() => service.close());

/** Questions the fixture server was asked about names under the special-use suffixes above. */
function specialUseQueries(): string[] {
  return service.dns.queries
    .map((query) => query.name.toLowerCase())
    .filter((name) => /(^|\.)(local|internal|localhost)$/.test(name));
}

describe('the domain tool hands out no internal address', () => {
  it.each([
    ['resolves only to a private address', 'vault.corp.example-internal.com'],
    ['has MX hosts only under .local, localhost and .internal', 'mx-inward.com'],
    ['names only private hosts in its SPF record', 'spf-inward.com'],
    ['does not exist', 'no-such-sender.com'],
  ])('answers 400 for a domain that %s, in words that do not say which', async (_, domain) => {
    await expectError(
      await service.post('/domain/v1', { domain }),
      400,
      postError('invalid_target', `${domain} has no public IP address`),
    );
  });

  it('never asks about a name under a special-use suffix, whoever names it', () => {
    // Run after the domains above: their MX and SPF records name such hosts.
    expect(specialUseQueries()).toEqual([]);
  });

  it('keeps the public senders of a domain that also names private ones, and stores none of the private ones', async () => {
    const response = await service.post('/domain/v1', { domain: 'partly-inward.com' });
    expect(response.status).toBe(200);
    const posted = (await response.json()) as DomainCheckAnswer;
    expect(posted).toMatchObject({
      ips: ['185.99.0.1', '185.99.0.2'],
      ranges: [],
      mx: [{ exchange: 'mail.partly-inward.com', priority: 10, addresses: ['185.99.0.2'] }],
    });
    const stored = await (await service.get(`/domain/v1/${posted.token}`)).text();
    for (const text of [JSON.stringify(posted), stored]) {
      expect(text).not.toMatch(/127\.0\.0\.1|192\.168\.7\.7|"10\.9\.0\.0\/16"/);
    }
  });
});

describe('one domain check cannot starve the others', () => {
  it('answers an ordinary IP check in its usual time while a domain with 1,260 dropped MX hosts is being checked', async () => {
    const started = performance.now();
    const usual = await service.post('/ip/v1', { target: '185.200.0.1' });
    const usualMs = performance.now() - started;
    expect(usual.status).toBe(200);

    const floodStart = service.dns.queries.length;
    const floodHostQueries = () =>
      service.dns.queries
        .slice(floodStart)
        .filter((query) => query.name.endsWith('.flood-sink.net') && query.type === 'A').length;
    const hostile = service.post('/domain/v1', { domain: 'flood-sender.com' });
    // Until the hostile check is sending its MX hosts' look-ups.
    for (let waited = 0; floodHostQueries() === 0 && waited < 2000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(floodHostQueries()).toBeGreaterThan(0);

    const during = performance.now();
    const ordinary = await service.post('/ip/v1', { target: '185.200.0.2' });
    const duringMs = performance.now() - during;
    // Before the budget per check (docs/checks.md#a-budget-per-check), the flood held all 512
    // slots for DNS_TIMEOUT_MS and this check timed out.
    expect(ordinary.status).toBe(200);
    expect(duringMs).toBeLessThan(Math.max(750, usualMs * 3));

    // The flood's MX hosts time out: it has no public address, and cost 10 look-ups, not 1,260.
    await expectError(
      await hostile,
      400,
      postError('invalid_target', 'flood-sender.com has no public IP address'),
    );
    expect(floodHostQueries()).toBeLessThanOrEqual(10);
  });
});

describe('no result grows past a few tens of kilobytes', () => {
  it('lists 1,024 of the 48,000 addresses of a 60 KB SPF record, with their count, in a result under 64 KB', async () => {
    const response = await service.post('/domain/v1', { domain: 'giant-sender.com' });
    expect(response.status).toBe(200);
    const text = await response.text();
    const result = JSON.parse(text) as DomainCheckAnswer;
    expect(result.ips).toHaveLength(1024);
    expect(result).toMatchObject({ ips_total: 48_000, ips_truncated: true });
    expect(result.spf.recordTruncated).toBe(true);
    // Before the bounds (docs/checks.md#bounded-results): 48,001 entries, 1.36 MB stored.
    expect(new TextEncoder().encode(text).length).toBeLessThan(64 * 1024);
    const stored = await (await service.get(`/domain/v1/${result.token}`)).arrayBuffer();
    expect(stored.byteLength).toBeLessThan(64 * 1024);
  });

  it('bounds every list of a result at once: addresses, ranges, IPv6 networks, terms and MX addresses', async () => {
    const response = await service.post('/domain/v1', { domain: 'sprawling-sender.com' });
    expect(response.status).toBe(200);
    const text = await response.text();
    const result = JSON.parse(text) as Record<string, unknown> & {
      ips: string[];
      ranges: unknown[];
      ip6: string[];
      mx: { addresses: string[]; addresses_total?: number }[];
      spf: { nonPass: unknown[]; nonPassTotal?: number };
    };
    expect(result).toMatchObject({
      ips_total: 800 * 16 + 100,
      ips_truncated: true,
      ranges_total: 400,
      ip6_total: 400,
    });
    expect(result.ips).toHaveLength(1024);
    expect(result.ranges).toHaveLength(256);
    expect(result.ip6).toHaveLength(256);
    expect(result.spf.nonPass).toHaveLength(32);
    expect(result.spf.nonPassTotal).toBe(400);
    expect(result.mx[0]?.addresses).toHaveLength(32);
    expect(result.mx[0]?.addresses_total).toBe(100);
    expect(new TextEncoder().encode(text).length).toBeLessThan(128 * 1024);
  });
});

describe('forged answers on the wire', () => {
  let forged: TestService;
  beforeAll(async () => {
    // Every answer from spamcop's zone is preceded by three forgeries claiming a listing
    // (127.0.0.2): under another ID, about another question, and from another port.
    const world = dnsblWorld(await loadZoneList(), {}).map((zone) =>
      zone.origin === 'bl.spamcop.net' ? { ...zone, forge: true, latencyMs: 30 } : zone,
    );
    forged = await startTestService({ world, transport: 'udp' });
  });
  afterAll(() => forged.close());

  it('cannot plant a listing: the check takes the real answer (RFC 5452 §3)', async () => {
    const response = await forged.post('/ip/v1', { target: '185.200.0.9' });
    expect(response.status).toBe(200);
    const result = (await response.json()) as IpCheckAnswer;
    expect(result.ip_score.listed).toBe(0);
    expect(result.ip_score.lists).toContainEqual(
      expect.objectContaining({ zone: 'bl.spamcop.net', status: 'clean' }),
    );
  });
});
