import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRecords, FixtureZone } from '../../../fixtures/dns-server.js';
import { type TestService, startTestService } from '../../support/service.js';
import type { DomainCheckAnswer, IpCheckAnswer } from '../../support/responses.js';

/**
 * The real service with DNS_TRANSPORT=doh: every query goes as an RFC 8484 POST to the fixture DoH
 * endpoint (DNS_SERVERS points at a closed port, so a query that took UDP would time out), which
 * answers from the same fixture world as the UDP tests. The tools' results are the same as over
 * UDP; what differs is pool discovery, which cannot reach a zone's own name servers (docs/edge.md).
 */

const listedIp = '185.220.101.5';
const senderIp = '185.12.34.56';

const spf = (record: string): FixtureRecords => ({ TXT: [record] });

const zones: FixtureZone[] = [
  {
    origin: 'in-addr.arpa',
    records: { '56.34.12.185.in-addr.arpa': { PTR: ['mail.sender-fixture.net'] } },
  },
  {
    origin: 'sender-fixture.net',
    records: {
      'mail.sender-fixture.net': { A: [senderIp] },
      'sender-fixture.net': {
        ...spf('v=spf1 include:_spf.sender-fixture.net mx -all'),
        MX: [{ exchange: 'mail.sender-fixture.net', priority: 10 }],
      },
      '_spf.sender-fixture.net': spf('v=spf1 ip4:185.12.34.60 -all'),
      '_dmarc.sender-fixture.net': spf('v=DMARC1; p=reject'),
    },
  },
  {
    origin: 'pool-doh.net',
    records: {
      'pool-doh.net': { NS: ['ns1.pool-doh.net'] },
      'ns1.pool-doh.net': { A: ['127.0.0.1'] },
      'small.pool-doh.net': { A: ['192.0.3.10', '192.0.3.7', '192.0.3.9'] },
    },
  },
];

let service: TestService;
beforeAll(async () => {
  service = await startTestService({
    transport: 'doh',
    listings: {
      [listedIp]: { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] },
    },
    zones,
    // An HTTP exchange costs more CPU than a datagram: on a loaded machine the UDP tests' 300 ms
    // can pass before a burst of fifty is answered, and timeouts are not what this file tests.
    env: (dns) => ({
      DNS_TIMEOUT_MS: '3000',
      CHECK_DEADLINE_MS: '8000',
      POOL_NS_PORT: String(dns.port),
      POOL_NS_ALLOW_NON_PUBLIC: 'true',
    }),
  });
});
afterAll(() => service.close());

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await service.post(path, body);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('the service with DNS_TRANSPORT=doh', () => {
  it('is configured: the start-up self-test passed through the DoH endpoint', async () => {
    const status = (await (await service.get('/ip/v1/status')).json()) as { configured: boolean };
    expect(status.configured).toBe(true);
    expect(service.doh?.requests.length).toBeGreaterThan(0);
  });

  it('checks a listed IP fully: every list answered, the listings found, FCrDNS passing', async () => {
    const asked = service.doh!.requests.length;
    const result = await post('/ip/v1', { target: listedIp });
    const score = (result as IpCheckAnswer).ip_score;
    // Every list but those waiting for a key (none is set), which are never asked.
    expect(score.answered).toBe(score.total - score.needs_key);
    const listed = score.lists.filter((list) => list.status === 'listed').map((list) => list.zone);
    expect(listed.sort()).toEqual(['bl.spamcop.net', 'zen.spamhaus.org']);
    // One POST per list at least, all of them DNS messages.
    expect(service.doh!.requests.length - asked).toBeGreaterThanOrEqual(score.answered);
    expect(service.doh!.requests.slice(asked).every((request) => request.dnsId === 0)).toBe(true);

    const sender = await post('/ip/v1', { target: senderIp });
    expect(sender).toMatchObject({
      ptr: 'mail.sender-fixture.net',
      ip_score: { rdns: { fcrdns: 'pass' }, listed: 0 },
    });
  });

  it('checks a domain: SPF through its include and MX, DMARC, sender addresses on the lists', async () => {
    const result = await post('/domain/v1', { domain: 'sender-fixture.net' });
    expect(result).toMatchObject({
      domain: 'sender-fixture.net',
      ips: ['185.12.34.56', '185.12.34.60'],
      exists: true,
      dmarc: { present: true, policy: 'reject' },
      spf: {
        status: 'found',
        record: 'v=spf1 include:_spf.sender-fixture.net mx -all',
        domains: ['sender-fixture.net', '_spf.sender-fixture.net'],
      },
      mx: [{ exchange: 'mail.sender-fixture.net', priority: 10, addresses: [senderIp] }],
    });
    const score = (result as DomainCheckAnswer).domain_score;
    expect(score.answered).toBe(score.total - score.needs_key);
  });

  it('discovers a pool through the DoH endpoint alone, asks none of its name servers, and says so', async () => {
    const result = await post('/pool/v1/discover', { pool: 'small.pool-doh.net' });
    expect(result).toMatchObject({
      pool: 'small.pool-doh.net',
      ips: ['192.0.3.7', '192.0.3.9', '192.0.3.10'],
      exists: true,
      saturated: true,
      sources: { resolver: true, authoritative: 0 },
    });
    expect(result.notes).toEqual([
      expect.stringMatching(/^Asked the configured DoH resolvers only/),
    ]);
    // Not even the pool's NS records were asked: they would only name servers it cannot reach.
    expect(service.dns.queries).not.toContainEqual({ name: 'pool-doh.net', type: 'NS' });
  });
});
