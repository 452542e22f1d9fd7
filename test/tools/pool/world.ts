import { expect } from 'vitest';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import type { Listings } from '../../../fixtures/dnsbl-world.js';
import { type TestService, startTestService } from '../../support/service.js';
import type { PoolCheckAnswer, PoolDiscoverAnswer, QuotaStatus } from '../../support/responses.js';

/**
 * The pools' fixture world the pool suites share (discover.test.ts, check.test.ts,
 * share.test.ts), the service over it and what a suite asks it. The fixture DNS world is also
 * each pool zone's name server (NS -> 127.0.0.1, POOL_NS_PORT), so discovery asks it both as the
 * configured resolver and as the authoritative server; the Worker resolves over DoH alone and
 * asks no name server itself (`asksNameServers`, docs/edge.md).
 */

/** 40 addresses in numeric order; as text, 185.40.0.10 would sort before 185.40.0.2. */
export const rotatingAddresses = Array.from({ length: 40 }, (_, index) => `185.40.0.${index + 1}`);
export const listedIp = '192.0.3.8';
export const cleanIp = '192.0.3.7';
export const maxIps = 8;

export const poolZones: FixtureZone[] = [
  {
    origin: 'pool-one.net',
    records: {
      'pool-one.net': { NS: ['ns1.pool-one.net'] },
      'ns1.pool-one.net': { A: ['127.0.0.1'] },
      // Answers a random 4 of its 40 addresses per query.
      'smtp.pool-one.net': { A: rotatingAddresses, pickA: 4 },
      // A small stable pool, served out of numeric order.
      'small.pool-one.net': { A: ['192.0.3.10', cleanIp, '192.0.3.9', listedIp] },
      // The same pool under a name only one test discovers: its first answer is never cached.
      'contract.pool-one.net': { A: ['192.0.3.10', cleanIp, '192.0.3.9', listedIp] },
      'fresh.pool-one.net': { A: ['185.43.0.1'] },
      'both.pool-one.net': { A: ['185.43.0.2'] },
      'mixed.pool-one.net': {
        A: ['185.41.0.2', '10.0.0.5', '185.41.0.1', '127.0.0.2', '192.168.1.1'],
      },
      'mail.pool-one.net': { CNAME: 'relay.pool-two.net' },
      'mx-only.pool-one.net': { MX: [{ exchange: 'small.pool-one.net', priority: 10 }] },
      'inside.pool-one.net': { A: ['10.20.30.40', '127.0.0.1', '169.254.169.254'] },
      'alias.pool-one.net': { CNAME: 'vault.corp.internal' },
      // A dual-stack pool: one IPv4 address, three IPv6 ones (one written in a long form).
      'six.pool-one.net': {
        A: ['185.44.0.1'],
        AAAA: ['2a01:4f8:30::10', '2a01:04f8:0030:0000:0000:0000:0000:0002', '2a01:4f8:30::1'],
      },
      // IPv6 only, and nothing of it public: refused like the IPv4 ones.
      'inside6.pool-one.net': { AAAA: ['fd00::1', '::ffff:10.0.0.1', 'fe80::1'] },
    },
  },
  {
    origin: 'pool-two.net',
    records: {
      'pool-two.net': { NS: ['ns1.pool-two.net'] },
      'ns1.pool-two.net': { A: ['127.0.0.1'] },
      'relay.pool-two.net': { A: ['185.42.0.2', '185.42.0.1'] },
    },
  },
  // Served here as a resolver inside a private network would serve it.
  { origin: 'internal', records: { 'vault.corp.internal': { A: ['10.20.30.41'] } } },
  { origin: 'broken-pool.net', behaviour: 'servfail' },
  { origin: 'silent-pool.net', behaviour: 'drop' },
];

export const listedIp6 = '2a01:4f8:30::1';
export const listings: Listings = {
  [listedIp]: { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] },
  [listedIp6]: { 'zen.spamhaus.org': ['127.0.0.3'] },
};

export const quotaFields = ['configured', 'dailyLimit', 'dailyRemaining', 'captchaRequired'];
/** Not in the contract, the caller's own: left out of what GET by token returns. */
export const callerFields = [...quotaFields, 'siteKey', 'from_cache'];

/** The spec's fields, then what the service adds (free-form per the spec's "not shown"). */
export const discoverFields = [
  ...['pool', 'ips', 'token', 'from_cache', ...quotaFields],
  ...['kind', 'results', 'exists', 'rounds', 'queries'],
  ...['saturated', 'stopReason', 'sources', 'notes', 'checked_at'],
];
export const checkFields = [
  ...['pool', 'results', 'token', 'from_cache', ...quotaFields],
  ...['kind', 'details', 'listed', 'checked', 'checked_at'],
];

/** The service over the pools' world, with POOL_MAX_IPS `maxIps`. */
export function startPoolService(): Promise<TestService> {
  return startTestService({
    listings,
    zones: poolZones,
    env: (dns) => ({
      POOL_NS_PORT: String(dns.port),
      POOL_NS_ALLOW_NON_PUBLIC: 'true',
      POOL_MAX_IPS: String(maxIps),
      DAILY_LIMIT: '200',
    }),
  });
}

/** What the pool suites ask the service, each answer checked to be a 200 JSON one. */
export function poolClient(service: TestService) {
  async function post<T>(path: string, body: unknown): Promise<T> {
    const response = await service.post(path, body);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    return (await response.json()) as T;
  }
  return {
    discover: (body: unknown) => post<PoolDiscoverAnswer>('/pool/v1/discover', body),
    check: (body: unknown) => post<PoolCheckAnswer>('/pool/v1/check', body),
    /** The caller's units left today. */
    async remaining(): Promise<number> {
      const status = (await (await service.get('/pool/v1/status')).json()) as QuotaStatus;
      return status.dailyRemaining;
    },
  };
}

/** Only what the check itself said: what GET by token returns beside `token`. */
export function withoutCallerFields(result: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(result).filter(([field]) => !callerFields.includes(field)),
  );
}
