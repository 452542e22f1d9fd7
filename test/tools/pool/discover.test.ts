import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestService,
  expectError,
  expectQuotaStatus,
  postError,
} from '../../support/service.js';
import { expectNotConfiguredWhileDnsIsDead } from '../common/dead-dns.js';
import {
  discoverFields,
  listedIp6,
  maxIps,
  poolClient,
  rotatingAddresses,
  startPoolService,
  withoutCallerFields,
} from './world.js';

/**
 * The pool tool's discover over real HTTP: POST /pool/v1/discover, the result behind its token
 * (GET /pool/v1/{token}), the caller's quota (GET /pool/v1/status) and the tool's route table,
 * answers and errors side by side, against the pools' fixture world (world.ts) answered in
 * memory. The discovery's stopping rule and sources have their own unit tests
 * (test/reputation/checks/pool-discovery.test.ts); here each result is followed from the DNS data
 * to the JSON the caller reads. The same suite runs inside workerd against the Worker, which
 * resolves over DoH alone and so asks no name server itself (`asksNameServers`, docs/edge.md).
 */

let service: TestService;
let pool: ReturnType<typeof poolClient>;
beforeAll(async () => {
  service = await startPoolService();
  pool = poolClient(service);
});
afterAll(() => service.close());

const discover = (body: unknown) => pool.discover(body);
const remaining = () => pool.remaining();

describe('POST /pool/v1/discover', () => {
  describe('happy path', () => {
    it('answers the contract fields: the pool, its addresses sorted numerically, a token and the quota status', async () => {
      // A pool no other test discovers: a fresh discover.
      const result = await discover({ pool: 'contract.pool-one.net' });
      expect(Object.keys(result).sort()).toEqual([...discoverFields].sort());
      expect(result).toMatchObject({
        kind: 'discover',
        pool: 'contract.pool-one.net',
        ips: ['192.0.3.7', '192.0.3.8', '192.0.3.9', '192.0.3.10'],
        exists: true,
        from_cache: false,
        configured: true,
        dailyLimit: 200,
        captchaRequired: false,
      });
      expect(result.results).toEqual(result.ips);
      expect(result.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(result.dailyRemaining).toEqual(expect.any(Number));
    });

    it('saturates on a small stable pool in few rounds, asking the zone’s authoritative name server found through NS where it can, and answers its repeat from the cache', async () => {
      const result = await discover({ pool: 'small.pool-one.net' });
      // Another captcha token is the same request: answered from the cache, nothing asked again.
      const asked = (await service.dnsQueries()).length;
      const repeat = await discover({ pool: 'small.pool-one.net', 'smart-token': 'fresh' });
      expect(repeat).toMatchObject({ from_cache: true, token: result.token });
      expect((await service.dnsQueries()).length).toBe(asked);
      expect(result).toMatchObject({
        saturated: true,
        stopReason: 'saturated',
        sources: { resolver: true, authoritative: service.asksNameServers ? 1 : 0 },
      });
      // Five quiet rounds in a row after the one that showed the addresses.
      expect(result.rounds).toBeLessThanOrEqual(6);
      const nameServersAsked = { name: 'pool-one.net', type: 'NS' };
      if (service.asksNameServers)
        expect(await service.dnsQueries()).toContainEqual(nameServersAsked);
      else {
        // Over DoH alone: not even the NS records are asked, and the result says why.
        expect(await service.dnsQueries()).not.toContainEqual(nameServersAsked);
        expect(result.notes).toEqual([
          expect.stringMatching(/^Asked the configured DoH resolvers only/),
        ]);
      }
    });

    it('stops at POOL_MAX_IPS addresses of a pool of 40 that answers a random 4 per query', async () => {
      const result = await discover({ pool: 'smtp.pool-one.net' });
      // A pool check takes at most POOL_MAX_IPS addresses: discovery offers no more.
      expect(result.ips).toHaveLength(maxIps);
      expect(result).toMatchObject({ stopReason: 'address_limit', saturated: false });
      // Only the pool's addresses, each once, in numeric order.
      expect(result.ips).toEqual(rotatingAddresses.filter((ip) => result.ips.includes(ip)));
      expect(result.sources.authoritative).toBe(service.asksNameServers ? 1 : 0);
      expect(result.queries).toBeLessThanOrEqual(200);
    });

    it('accepts the alias domain for pool, normalising the name to the same request', async () => {
      const first = await discover({ pool: 'small.pool-one.net' });
      const alias = await discover({ domain: ' Small.POOL-one.net. ' });
      expect(alias).toMatchObject({ pool: 'small.pool-one.net', from_cache: true });
      expect(alias.token).toBe(first.token);
      expect(alias.ips).toEqual(first.ips);
    });

    it('prefers pool when both pool and domain are given', async () => {
      const result = await discover({ pool: 'both.pool-one.net', domain: 'small.pool-one.net' });
      expect(result).toMatchObject({ pool: 'both.pool-one.net', ips: ['185.43.0.2'] });
    });

    it('leaves out the private and loopback addresses of a pool, uncounted, in the result and in what is stored', async () => {
      const result = await discover({ pool: 'mixed.pool-one.net' });
      expect(result.ips).toEqual(['185.41.0.1', '185.41.0.2']);
      const stored = await (await service.get(`/pool/v1/${result.token}`)).text();
      for (const text of [JSON.stringify(result), stored]) {
        expect(text).not.toMatch(/10\.0\.0\.5|127\.0\.0\.2|192\.168\.1\.1/);
      }
    });

    it('follows a CNAME and discovers the canonical name’s addresses, from its own zone’s name server', async () => {
      const result = await discover({ pool: 'mail.pool-one.net' });
      expect(result).toMatchObject({
        pool: 'mail.pool-one.net',
        canonicalName: 'relay.pool-two.net',
        ips: ['185.42.0.1', '185.42.0.2'],
        sources: { resolver: true, authoritative: service.asksNameServers ? 1 : 0 },
      });
      const asked = await service.dnsQueries();
      if (service.asksNameServers) {
        expect(asked).toContainEqual({ name: 'pool-two.net', type: 'NS' });
        expect(asked).toContainEqual({ name: 'relay.pool-two.net', type: 'A' });
      } else expect(asked).not.toContainEqual({ name: 'pool-two.net', type: 'NS' });
    });

    it.each([
      ['has no A records', 'mx-only.pool-one.net'],
      ['does not exist', 'missing.pool-one.net'],
      ['hands out only internal addresses', 'inside.pool-one.net'],
      ['is an alias of an internal name', 'alias.pool-one.net'],
    ])('answers 400 for a pool that %s, in the same words as for the others', async (_, pool) => {
      await expectError(
        await service.post('/pool/v1/discover', { pool }),
        400,
        postError('invalid_target', `${pool} has no public IP address`),
      );
    });

    it('costs one unit of the daily quota per fresh discover and none for a cached one', async () => {
      const before = await remaining();
      const fresh = await discover({ pool: 'fresh.pool-one.net' });
      expect(fresh.dailyRemaining).toBe(before - 1);
      const repeat = await discover({ pool: 'fresh.pool-one.net' });
      expect(repeat).toMatchObject({ from_cache: true, dailyRemaining: before - 1 });
      expect(await remaining()).toBe(before - 1);
    });
  });

  describe('IPv6 pools', () => {
    it('discovers AAAA as well as A: IPv4 addresses first, then IPv6 ones in RFC 5952 form, sorted', async () => {
      const before = (await service.dnsQueries()).length;
      const found = await discover({ pool: 'six.pool-one.net' });
      expect(found.ips).toEqual(['185.44.0.1', listedIp6, '2a01:4f8:30::2', '2a01:4f8:30::10']);
      expect(found).toMatchObject({ saturated: true, stopReason: 'saturated' });
      const asked = (await service.dnsQueries())
        .slice(before)
        .filter((query) => query.name === 'six.pool-one.net' && query.type.startsWith('A'));
      expect(asked.filter((query) => query.type === 'AAAA').length).toBeGreaterThan(0);
      expect(asked.filter((query) => query.type === 'A').length).toBeGreaterThan(0);
      expect(found.queries).toBe(asked.length);
    });
    it('refuses a pool whose AAAA records are none of them public', async () => {
      const response = await service.post('/pool/v1/discover', { pool: 'inside6.pool-one.net' });
      await expectError(
        response,
        400,
        postError('invalid_target', 'inside6.pool-one.net has no public IP address'),
      );
    });
  });

  describe('errors', () => {
    it.each([
      ['no pool', {}],
      ['only a captcha token', { 'smart-token': 'x' }],
      ['a pool that is a number', { pool: 42 }],
      ['an alias domain that is an array', { domain: ['small.pool-one.net'] }],
    ])('answers 400 invalid_request for %s', async (_, body) => {
      await expectError(
        await service.post('/pool/v1/discover', body),
        400,
        postError('invalid_request'),
      );
    });

    it.each([
      ['an IPv4 address', '185.40.0.1'],
      ['localhost', 'localhost'],
      ['a .test name', 'smtp.pool.test'],
      ['a .local name', 'smtp.pool.local'],
      ['a single label', 'mailpool'],
      ['a URL', 'https://smtp.pool-one.net/'],
      ['an empty string', ''],
    ])('answers 400 invalid_target for %s', async (_, pool) => {
      await expectError(
        await service.post('/pool/v1/discover', { pool }),
        400,
        postError('invalid_target'),
      );
    });

    it('answers 400 invalid_json for a body that is not JSON', async () => {
      await expectError(
        await service.post('/pool/v1/discover', '{"pool": '),
        400,
        postError('invalid_json'),
      );
    });

    it.each(['/pool/v1/discover', '/pool/v1/check'])(
      'answers 415 unsupported_media_type for a body to %s not sent as JSON',
      async (path) => {
        const response = await service.fetch(service.url(path), {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: '{"pool":"small.pool-one.net"}',
        });
        await expectError(response, 415, postError('unsupported_media_type'));
      },
    );

    it('answers 503 dns_unavailable when the pool’s DNS fails, and gives the unit back', async () => {
      const before = await remaining();
      await expectError(
        await service.post('/pool/v1/discover', { pool: 'smtp.broken-pool.net' }),
        503,
        postError('dns_unavailable', expect.stringContaining('smtp.broken-pool.net')),
      );
      expect(await remaining()).toBe(before);
    });

    it('answers 503 dns_unavailable when the pool’s DNS never answers', async () => {
      await expectError(
        await service.post('/pool/v1/discover', { pool: 'smtp.silent-pool.net' }),
        503,
        postError('dns_unavailable'),
      );
    });

    it('spends no quota on a refused discover', async () => {
      const before = await remaining();
      await service.post('/pool/v1/discover', { pool: 'localhost' });
      await service.post('/pool/v1/discover', {});
      expect(await remaining()).toBe(before);
    });

    it('reports configured: false in the pool status and refuses its POST while DNS is dead', async () => {
      await expectNotConfiguredWhileDnsIsDead('pool', '/pool/v1/discover', {
        pool: 'smtp.pool-one.net',
      });
    });
  });
});

describe('GET /pool/v1/status', () => {
  it('answers the quota status object', async () => {
    await expectQuotaStatus(await service.get('/pool/v1/status'), 200);
  });
});

describe('GET /pool/v1/{token}', () => {
  it('returns the pool’s addresses as results for a discover token', async () => {
    const posted = await discover({ pool: 'mixed.pool-one.net' });
    const response = await service.get(`/pool/v1/${posted.token}`);
    expect(response.status).toBe(200);
    const stored = (await response.json()) as Record<string, unknown>;
    expect(stored).toMatchObject({
      token: posted.token,
      pool: 'mixed.pool-one.net',
      results: ['185.41.0.1', '185.41.0.2'],
    });
    expect(stored).toEqual(withoutCallerFields(posted));
  });

  it('answers 404 not_found for an unknown token', async () => {
    await expectError(await service.get('/pool/v1/AAAAAAAAAAAAAAAAAAAAAA'), 404, {
      status: 'error',
      code: 'not_found',
      error: expect.any(String),
    });
  });

  it('does not answer a pool token from another tool’s path', async () => {
    const posted = await discover({ pool: 'small.pool-one.net' });
    expect((await service.get(`/ip/v1/${posted.token}`)).status).toBe(404);
    expect((await service.get(`/domain/v1/${posted.token}`)).status).toBe(404);
  });
});

describe('the route table: OpenAPI document and 405', () => {
  it('documents the pool routes in the OpenAPI document, discover and check as POST only', async () => {
    const response = await service.fetch(`${service.url('')}/openapi.json`);
    const doc = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    // Paths are relative to the base path, which the document's `servers` carries.
    const base = '/pool/v1';
    expect(Object.keys(doc.paths[`${base}/discover`] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths[`${base}/check`] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths[`${base}/status`] ?? {})).toEqual(['get', 'head']);
    expect(Object.keys(doc.paths[`${base}/{token}`] ?? {})).toEqual(['get', 'head']);
  });

  it.each([
    ['GET', '/pool/v1/discover', 'POST'],
    ['HEAD', '/pool/v1/discover', 'POST'],
    ['PUT', '/pool/v1/discover', 'POST'],
    ['POST', '/pool/v1/status', 'GET, HEAD'],
    ['DELETE', '/pool/v1/AAAAAAAAAAAAAAAAAAAAAA', 'GET, HEAD'],
  ])('answers 405 method_not_allowed for %s %s, with Allow: %s', async (method, path, allow) => {
    const response = await service.fetch(service.url(path), { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    if (method === 'HEAD') return;
    expect(await response.json()).toEqual({
      status: 'error',
      code: 'method_not_allowed',
      error: expect.any(String),
    });
  });
});
