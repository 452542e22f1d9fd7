import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressSummary } from '../../../src/reputation/index.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { keyedCounts, keylessCounts } from '../../../fixtures/keyless-lists.js';
import {
  type TestService,
  expectError,
  postError,
  startTestService,
} from '../../support/service.js';
import type { ErrorAnswer, PoolCheckAnswer } from '../../support/responses.js';
import {
  checkFields,
  cleanIp,
  listedIp,
  listedIp6,
  maxIps,
  poolClient,
  rotatingAddresses,
  startPoolService,
  withoutCallerFields,
} from './world.js';

/**
 * The pool tool's check over real HTTP: POST /pool/v1/check of addresses a discover found, and
 * the result behind its token (GET /pool/v1/{token}), answers and errors side by side, against
 * the pools' fixture world (world.ts) answered in memory. Every test discovers what it checks
 * first, or its describe does. The same suite runs inside workerd against the Worker.
 */

let service: TestService;
let pool: ReturnType<typeof poolClient>;
/** IP lists in the default zone list: the N of "0 of N lists". */
let ipLists: number;
/** The lists the service asks about an IPv6 address. */
let ipv6Lists: number;
/** The lists waiting for a key (no key is set): shown as disabled, counted, never asked. */
let keyedIpLists: number;
let keyedIpv6Lists: number;
/** What every address's line ends with: the lists waiting for a key. */
let needKey: string;
beforeAll(async () => {
  service = await startPoolService();
  pool = poolClient(service);
  ({ ipv4: ipLists, ipv6: ipv6Lists } = await keylessCounts());
  ({ ipv4: keyedIpLists, ipv6: keyedIpv6Lists } = await keyedCounts());
  needKey = `; ${keyedIpLists} need a key`;
});
afterAll(() => service.close());

const discover = (body: unknown) => pool.discover(body);
const check = (body: unknown) => pool.check(body);
const remaining = () => pool.remaining();

describe('POST /pool/v1/check', () => {
  describe('happy path', () => {
    beforeAll(async () => {
      await discover({ pool: 'small.pool-one.net' });
    });

    it('answers the contract fields, one line per address in the caller’s order, listed and clean', async () => {
      // Addresses no other test checks together: a fresh check.
      const result = await check({ pool: 'small.pool-one.net', ips: [listedIp, '192.0.3.9'] });
      expect(Object.keys(result).sort()).toEqual([...checkFields].sort());
      expect(result).toMatchObject({
        kind: 'check',
        pool: 'small.pool-one.net',
        from_cache: false,
        configured: true,
        dailyLimit: 200,
        captchaRequired: false,
      });
      expect(result.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(result.results).toEqual([
        `${listedIp}: listed on 2 of ${ipLists} lists: zen.spamhaus.org (SBL), bl.spamcop.net${needKey}`,
        `192.0.3.9: not listed on any of ${ipLists} lists${needKey}`,
      ]);
    });

    it('carries the structured result of each address in details, in the same order', async () => {
      const result = await check({ pool: 'small.pool-one.net', ips: [listedIp, cleanIp] });
      expect(result).toMatchObject({ listed: 1, checked: 2 });
      const [listed, clean] = result.details;
      expect(listed).toMatchObject({
        ip: listedIp,
        verdict: 'poor',
        listed: 2,
        answered: ipLists,
        needs_key: keyedIpLists,
        total: ipLists + keyedIpLists,
      });
      // The lists waiting for a key were not asked: they did not answer, and are never clean.
      expect(listed?.unanswered).toHaveLength(keyedIpLists);
      expect(listed?.unanswered.every((list) => list.status === 'disabled')).toBe(true);
      // Each listing says where to look (the address filled in) and where to ask for removal.
      expect(listed?.listings).toEqual([
        {
          zone: 'zen.spamhaus.org',
          name: 'Spamhaus ZEN',
          severity: 'major',
          detail: expect.stringMatching(/^SBL: /),
          codes: ['127.0.0.2'],
          lookup_url: `https://check.spamhaus.org/listed/?searchterm=${listedIp}`,
          delist_url: 'https://check.spamhaus.org/',
        },
        {
          zone: 'bl.spamcop.net',
          name: 'SpamCop Blocking List',
          severity: 'major',
          detail: expect.any(String),
          codes: ['127.0.0.2'],
          lookup_url: `https://www.spamcop.net/bl.shtml?${listedIp}`,
        },
      ]);
      expect(clean).toMatchObject({
        ip: cleanIp,
        verdict: 'good',
        score: 100,
        listed: 0,
        answered: ipLists,
        total: ipLists + keyedIpLists,
        listings: [],
      });
    });

    it('keeps the caller’s order whatever it is, normalising the pool name and the addresses', async () => {
      const result = await check({
        pool: 'SMALL.pool-one.net.',
        ips: ['192.0.3.10', ` ${cleanIp} `, '192.0.3.9', listedIp],
      });
      expect(result.pool).toBe('small.pool-one.net');
      expect(result.results.map((line) => line.split(':')[0])).toEqual([
        '192.0.3.10',
        cleanIp,
        '192.0.3.9',
        listedIp,
      ]);
      expect(result.details.map((detail) => detail.ip)).toEqual([
        '192.0.3.10',
        cleanIp,
        '192.0.3.9',
        listedIp,
      ]);
    });

    it('costs one unit per check request, however many addresses it holds', async () => {
      const before = await remaining();
      const result = await check({ pool: 'small.pool-one.net', ips: ['192.0.3.9', '192.0.3.10'] });
      expect(result.dailyRemaining).toBe(before - 1);
      expect(await remaining()).toBe(before - 1);
    });

    it('answers a repeated identical check from the cache: same token and results, no unit spent', async () => {
      const first = await check({ pool: 'small.pool-one.net', ips: ['192.0.3.10', listedIp] });
      const repeat = await check({ pool: 'small.pool-one.net', ips: ['192.0.3.10', listedIp] });
      expect(first.from_cache).toBe(false);
      expect(repeat.from_cache).toBe(true);
      expect(repeat.token).toBe(first.token);
      expect(repeat.results).toEqual(first.results);
      expect(repeat.details).toEqual(first.details);
      expect(repeat.dailyRemaining).toBe(first.dailyRemaining);
      // Another order is another result (its lines come in that order): checked afresh.
      const reordered = await check({ pool: 'small.pool-one.net', ips: [listedIp, '192.0.3.10'] });
      expect(reordered.from_cache).toBe(false);
      expect(reordered.dailyRemaining).toBe(first.dailyRemaining - 1);
    });
  });

  describe('IPv6 pools', () => {
    it('checks IPv6 addresses of the discover, in any RFC 4291 form, on the lists that cover IPv6', async () => {
      await discover({ pool: 'six.pool-one.net' });
      const result = await check({
        pool: 'six.pool-one.net',
        ips: ['2A01:4F8:30:0:0:0:0:1', '2a01:4f8:30::10', '185.44.0.1'],
      });
      expect(result.details.map((detail) => detail.ip)).toEqual([
        listedIp6,
        '2a01:4f8:30::10',
        '185.44.0.1',
      ]);
      expect(result.results[0]).toMatch(
        new RegExp(
          `^2a01:4f8:30::1: listed on 1 of ${ipv6Lists} lists: zen\\.spamhaus\\.org; \\d+ do not cover IPv6; ${keyedIpv6Lists} need a key$`,
        ),
      );
      expect(result.results[1]).toMatch(
        new RegExp(`^2a01:4f8:30::10: not listed on any of ${ipv6Lists} lists; \\d+ do not`),
      );
      expect(result.details[2]?.total).toBeGreaterThan(ipv6Lists);
      expect(result.listed).toBe(1);
    });

    it('refuses an IPv6 address the discover did not find, and one given twice in two forms', async () => {
      await discover({ pool: 'six.pool-one.net' });
      await expectError(
        await service.post('/pool/v1/check', { pool: 'six.pool-one.net', ips: ['2a01:4f8:30::3'] }),
        400,
        postError('invalid_target', expect.stringContaining('2a01:4f8:30::3 was not found')),
      );
      await expectError(
        await service.post('/pool/v1/check', {
          pool: 'six.pool-one.net',
          ips: [listedIp6, '2a01:4f8:30:0::1'],
        }),
        400,
        postError('invalid_request', `${listedIp6} is listed twice`),
      );
    });
  });

  describe('errors', () => {
    beforeAll(async () => {
      await Promise.all([
        discover({ pool: 'small.pool-one.net' }),
        discover({ pool: 'mixed.pool-one.net' }),
        discover({ pool: 'smtp.pool-one.net' }),
        // Refused (no public address): nothing is recorded for it.
        service.post('/pool/v1/discover', { pool: 'mx-only.pool-one.net' }),
      ]);
    });

    async function expectRefused(body: unknown, code: string, naming: string): Promise<void> {
      const response = await service.post('/pool/v1/check', body);
      await expectError(response, 400, postError(code, expect.stringContaining(naming)));
    }

    it('answers 400 naming an address that no discover of the pool found', async () => {
      await expectRefused(
        { pool: 'small.pool-one.net', ips: [cleanIp, '192.0.3.99'] },
        'invalid_target',
        '192.0.3.99',
      );
    });

    it('answers 400 naming an address that a discover of another pool found', async () => {
      await expectRefused(
        { pool: 'small.pool-one.net', ips: [cleanIp, '185.41.0.1'] },
        'invalid_target',
        '185.41.0.1',
      );
    });

    it('answers 400 for any address of a pool whose discover was refused for want of a public address', async () => {
      await expectRefused(
        { pool: 'mx-only.pool-one.net', ips: [cleanIp] },
        'invalid_target',
        `${cleanIp} was not found by a discover of mx-only.pool-one.net`,
      );
    });

    it.each([
      ['an octet over 255', '192.0.3.256'],
      ['a leading zero', '192.0.3.07'],
      ['a short form', '192.0.3'],
      ['a host name', 'small.pool-one.net'],
      ['an IPv6 address with two "::"', '2a00:1450::1::1'],
      ['an IPv6 address with a zone index', 'fe80::1%eth0'],
      ['an empty string', ''],
    ])('answers 400 naming a malformed address: %s', async (_, malformed) => {
      const response = await service.post('/pool/v1/check', {
        pool: 'small.pool-one.net',
        ips: [cleanIp, malformed],
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as ErrorAnswer;
      expect(body).toEqual(postError('invalid_target'));
      expect(body.error).toContain(`${malformed} is not a valid IP address`);
    });

    it('answers 400 invalid_request for an empty list', async () => {
      await expectRefused(
        { pool: 'small.pool-one.net', ips: [] },
        'invalid_request',
        `1 to ${maxIps}`,
      );
    });

    it('answers 400 invalid_request for more addresses than POOL_MAX_IPS', async () => {
      const ips = rotatingAddresses.slice(0, maxIps + 1);
      await expectRefused({ pool: 'smtp.pool-one.net', ips }, 'invalid_request', `1 to ${maxIps}`);
    });

    it('takes exactly POOL_MAX_IPS addresses', async () => {
      const { ips: found } = await discover({ pool: 'smtp.pool-one.net' });
      const result = await check({ pool: 'smtp.pool-one.net', ips: found.slice(0, maxIps) });
      expect(result.results).toHaveLength(maxIps);
    });

    it('answers 400 naming a pool that was never discovered', async () => {
      await expectRefused(
        { pool: 'never.pool-one.net', ips: [cleanIp] },
        'invalid_target',
        'never.pool-one.net',
      );
    });

    it('answers 400 invalid_request naming an address given twice, spaces around it or not', async () => {
      await expectRefused(
        { pool: 'small.pool-one.net', ips: [cleanIp, listedIp, ` ${cleanIp}`] },
        'invalid_request',
        cleanIp,
      );
    });

    it.each([
      ['no pool', { ips: [cleanIp] }],
      ['no ips', { pool: 'small.pool-one.net' }],
      ['ips that is not an array', { pool: 'small.pool-one.net', ips: cleanIp }],
      ['an address that is a number', { pool: 'small.pool-one.net', ips: [3221226247] }],
      ['a pool that is an array', { pool: ['small.pool-one.net'], ips: [cleanIp] }],
    ])('answers 400 invalid_request for %s', async (_, body) => {
      await expectError(
        await service.post('/pool/v1/check', body),
        400,
        postError('invalid_request'),
      );
    });

    it('spends no quota on a refused check', async () => {
      const before = await remaining();
      await service.post('/pool/v1/check', { pool: 'small.pool-one.net', ips: ['192.0.3.99'] });
      await service.post('/pool/v1/check', { pool: 'never.pool-one.net', ips: [cleanIp] });
      await service.post('/pool/v1/check', { pool: 'small.pool-one.net', ips: [] });
      expect(await remaining()).toBe(before);
    });
  });

  describe('a list that stops answering', () => {
    it('holds no address of a full check past the deadline: each is checked on every other list', async () => {
      const addresses = Array.from({ length: 32 }, (_, index) => `185.44.0.${index + 1}`);
      const pool: FixtureZone = {
        origin: 'pool-three.net',
        records: { 'big.pool-three.net': { A: addresses } },
      };
      const slow = await startTestService({
        zones: [pool],
        // 32 addresses on every list are a thousand queries: over DoH a Worker has six in flight
        // (docs/edge.md), so the deadline leaves them room (docs/zone-list.md, "What the lists cost").
        env: { POOL_MAX_IPS: '32', DNS_TIMEOUT_MS: '1000', CHECK_DEADLINE_MS: '3000' },
      });
      try {
        const discovered = await slow.post('/pool/v1/discover', { pool: 'big.pool-three.net' });
        expect(discovered.status).toBe(200);
        // After the start-up self-test, so the list is not disabled: it just stops answering.
        const world = dnsblWorld(await loadZoneList(), {}).map((zone) =>
          zone.origin === 'psbl.surriel.com' ? { ...zone, behaviour: 'drop' as const } : zone,
        );
        await slow.setZones([...world, pool]);
        const response = await slow.post('/pool/v1/check', {
          pool: 'big.pool-three.net',
          ips: addresses,
        });
        expect(response.status).toBe(200);
        const result = (await response.json()) as PoolCheckAnswer;
        expect(result.results).toEqual(
          addresses.map(
            (ip) =>
              `${ip}: not listed on any of ${ipLists - 1} lists that answered; 1 did not answer${needKey}`,
          ),
        );
        const silent = (detail: AddressSummary) =>
          detail.unanswered.filter((list) => list.status !== 'disabled');
        expect(result.details.map(silent)).toEqual(
          addresses.map(() => [{ zone: 'psbl.surriel.com', status: 'timeout' }]),
        );
      } finally {
        await slow.close();
      }
    });
  });
});

describe('GET /pool/v1/{token}', () => {
  it('returns token, pool and results for a check token: the stored result the POST answered', async () => {
    await discover({ pool: 'small.pool-one.net' });
    const posted = await check({ pool: 'small.pool-one.net', ips: [cleanIp, '192.0.3.9'] });
    const response = await service.get(`/pool/v1/${posted.token}`);
    expect(response.status).toBe(200);
    const stored = (await response.json()) as Record<string, unknown>;
    expect(stored).toMatchObject({
      token: posted.token,
      pool: 'small.pool-one.net',
      results: posted.results,
    });
    expect(stored).toEqual(withoutCallerFields(posted));
  });
});

describe('another method on the check route', () => {
  it.each([['GET', '/pool/v1/check', 'POST']])(
    'answers 405 method_not_allowed for %s %s, with Allow: %s',
    async (method, path, allow) => {
      const response = await service.fetch(service.url(path), { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      expect(await response.json()).toEqual({
        status: 'error',
        code: 'method_not_allowed',
        error: expect.any(String),
      });
    },
  );
});
