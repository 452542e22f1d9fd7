import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import type { FixtureZone } from '../fixtures/dns-server.js';
import { type Listings, dnsblWorld } from '../fixtures/dnsbl-world.js';
import { keyedCounts, keylessCounts } from '../fixtures/keyless-lists.js';
import { parseStrictSvg } from '../share/svg-structure.js';
import { pngHeader } from '../support/png.js';
import {
  type TestService,
  expectError,
  expectQuotaStatus,
  postError,
  startTestService,
} from '../support/service.js';

/**
 * The pool tool over real HTTP: GET /pool/v1/status, POST /pool/v1/discover, POST /pool/v1/check,
 * GET /pool/v1/{token} and the pool's share routes, against the fixture DNS world (the default
 * zone list plus the pools' own zones). The fixture server is also each pool zone's name server
 * (NS -> 127.0.0.1, POOL_NS_PORT = its port), so discovery asks it both as the configured resolver
 * and as the authoritative server. The discovery's stopping rule and sources have their own unit
 * tests (test/reputation/checks/pool-discovery.test.ts); here each result is followed from the DNS data
 * to the JSON the caller reads. The same suite runs inside workerd against the Worker, which
 * resolves over DoH alone and so asks no name server itself (`asksNameServers`, docs/edge.md).
 */

/** 40 addresses in numeric order; as text, 185.40.0.10 would sort before 185.40.0.2. */
const rotatingAddresses = Array.from({ length: 40 }, (_, index) => `185.40.0.${index + 1}`);
const listedIp = '192.0.3.8';
const cleanIp = '192.0.3.7';
const maxIps = 8;

const poolZones: FixtureZone[] = [
  {
    origin: 'pool-one.net',
    records: {
      'pool-one.net': { NS: ['ns1.pool-one.net'] },
      'ns1.pool-one.net': { A: ['127.0.0.1'] },
      // Answers a random 4 of its 40 addresses per query.
      'smtp.pool-one.net': { A: rotatingAddresses, pickA: 4 },
      // A small stable pool, served out of numeric order.
      'small.pool-one.net': { A: ['192.0.3.10', cleanIp, '192.0.3.9', listedIp] },
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

const listedIp6 = '2a01:4f8:30::1';
const listings: Listings = {
  [listedIp]: { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] },
  [listedIp6]: { 'zen.spamhaus.org': ['127.0.0.3'] },
};

const quotaFields = ['configured', 'dailyLimit', 'dailyRemaining', 'captchaRequired'];
/** Not in the contract, the caller's own: left out of what GET by token returns. */
const callerFields = [...quotaFields, 'siteKey', 'from_cache'];

/** The spec's fields, then what the service adds (free-form per the spec's "not shown"). */
const discoverFields = [
  ...['pool', 'ips', 'token', 'from_cache', ...quotaFields],
  ...['kind', 'results', 'exists', 'rounds', 'queries'],
  ...['saturated', 'stopReason', 'sources', 'notes', 'checked_at'],
];
const checkFields = [
  ...['pool', 'results', 'token', 'from_cache', ...quotaFields],
  ...['kind', 'details', 'listed', 'checked', 'checked_at'],
];

interface DiscoverResult {
  pool: string;
  ips: string[];
  results: string[];
  canonicalName?: string;
  exists: boolean;
  rounds: number;
  queries: number;
  saturated: boolean;
  stopReason: string;
  sources: { resolver: boolean; authoritative: number };
  notes: string[];
  token: string;
  from_cache: boolean;
  dailyLimit: number;
  dailyRemaining: number;
  [field: string]: unknown;
}

interface AddressDetail {
  ip: string;
  score: number;
  verdict: string;
  confidence: string;
  listed: number;
  answered: number;
  needs_key: number;
  total: number;
  listings: { zone: string; name: string; severity: string; detail: string }[];
  unanswered: { zone: string; status: string }[];
}

interface CheckResult {
  pool: string;
  results: string[];
  details: AddressDetail[];
  listed: number;
  checked: number;
  token: string;
  from_cache: boolean;
  dailyRemaining: number;
  [field: string]: unknown;
}

let service: TestService;
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
  service = await startTestService({
    listings,
    zones: poolZones,
    env: (dns) => ({
      POOL_NS_PORT: String(dns.port),
      POOL_NS_ALLOW_NON_PUBLIC: 'true',
      POOL_MAX_IPS: String(maxIps),
      DAILY_LIMIT: '200',
    }),
  });
  ({ ipv4: ipLists, ipv6: ipv6Lists } = await keylessCounts());
  ({ ipv4: keyedIpLists, ipv6: keyedIpv6Lists } = await keyedCounts());
  needKey = `; ${keyedIpLists} need a key`;
});
afterAll(() => service.close());

async function discover(body: unknown): Promise<DiscoverResult> {
  const response = await service.post('/pool/v1/discover', body);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as DiscoverResult;
}

async function check(body: unknown): Promise<CheckResult> {
  const response = await service.post('/pool/v1/check', body);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as CheckResult;
}

async function remaining(): Promise<number> {
  const status = (await (await service.get('/pool/v1/status')).json()) as DiscoverResult;
  return status.dailyRemaining;
}

/** Only what the check itself said: what GET by token returns beside `token`. */
function withoutCallerFields(result: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(result).filter(([field]) => !callerFields.includes(field)),
  );
}

describe('GET /pool/v1/status', () => {
  it('answers the quota status object', async () => {
    await expectQuotaStatus(await service.get('/pool/v1/status'), 200);
  });
});

describe('POST /pool/v1/discover, happy path', () => {
  it('answers the contract fields: the pool, its addresses sorted numerically, a token and the quota status', async () => {
    const result = await discover({ pool: 'small.pool-one.net' });
    expect(Object.keys(result).sort()).toEqual([...discoverFields].sort());
    expect(result).toMatchObject({
      kind: 'discover',
      pool: 'small.pool-one.net',
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

  it('saturates on a small stable pool in few rounds, asking the zone’s authoritative name server found through NS where it can', async () => {
    const asked = (await service.dnsQueries()).length;
    const result = await discover({ pool: 'small.pool-one.net', 'smart-token': 'fresh' });
    // The same request as the previous test's: answered from the cache, nothing asked again.
    expect(result.from_cache).toBe(true);
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
    const started = performance.now();
    const result = await discover({ pool: 'smtp.pool-one.net' });
    // Within the discovery's budget: CHECK_DEADLINE_MS, with slack.
    expect(performance.now() - started).toBeLessThan(service.deadlineMs + 1000);
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

describe('POST /pool/v1/check, happy path', () => {
  beforeAll(async () => {
    await discover({ pool: 'small.pool-one.net' });
  });

  it('answers the contract fields, one line per address in the caller’s order, listed and clean', async () => {
    const result = await check({ pool: 'small.pool-one.net', ips: [listedIp, cleanIp] });
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
      `${cleanIp}: not listed on any of ${ipLists} lists${needKey}`,
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

describe('share routes of the pool tool', () => {
  let checkToken: string;
  let discoverToken: string;
  beforeAll(async () => {
    discoverToken = (await discover({ pool: 'small.pool-one.net' })).token;
    checkToken = (await check({ pool: 'small.pool-one.net', ips: [cleanIp, listedIp] })).token;
  });

  async function badgeOf(token: string) {
    const response = await service.get(`/pool/v1/share/${token}/badge.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    return parseStrictSvg(await response.text());
  }

  async function cardOf(token: string) {
    const response = await service.get(`/pool/v1/share/${token}/card`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const png = new Uint8Array(await response.arrayBuffer());
    const header = pngHeader(png);
    return { size: [header?.width, header?.height], bytes: png.byteLength };
  }

  it('serves an SVG badge of a check token naming the pool and how many addresses are listed', async () => {
    const svg = await badgeOf(checkToken);
    expect(svg.name).toBe('svg');
    expect(svg.attributes['aria-label']).toBe('pool small.pool-one.net: 1 of 2 listed');
  });

  it('serves an SVG badge of a discover token counting the addresses found', async () => {
    const svg = await badgeOf(discoverToken);
    expect(svg.attributes['aria-label']).toBe('pool small.pool-one.net: 4 addresses found');
  });

  it.each([
    ['a check token', () => checkToken],
    ['a discover token', () => discoverToken],
  ])('serves a 1200x630 PNG card that is not blank for %s', async (_, token) => {
    const card = await cardOf(token());
    expect(card.size).toEqual([1200, 630]);
    // A blank card compresses to a few kilobytes; a drawn one takes tens.
    expect(card.bytes).toBeGreaterThan(20_000);
  });

  it('answers an unknown token with a 404: an SVG badge saying so, a JSON error for the card', async () => {
    const badge = await service.get('/pool/v1/share/AAAAAAAAAAAAAAAAAAAAAA/badge.svg');
    expect(badge.status).toBe(404);
    expect(badge.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(parseStrictSvg(await badge.text()).attributes['aria-label']).toMatch(/not found/);
    const card = await service.get('/pool/v1/share/AAAAAAAAAAAAAAAAAAAAAA/card');
    expect(card.status).toBe(404);
    expect(await card.json()).toMatchObject({ status: 'error', code: 'not_found' });
  });

  it('does not serve a pool token’s artefacts from another tool’s path', async () => {
    expect((await service.get(`/ip/v1/share/${checkToken}/badge.svg`)).status).toBe(404);
  });
});

describe('POST /pool/v1/check, errors', () => {
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
    const body = (await response.json()) as { code: string; error: string };
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

describe('POST /pool/v1/discover, errors', () => {
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

  it('answers 503 dns_unavailable within the deadline when the pool’s DNS never answers', async () => {
    const started = performance.now();
    await expectError(
      await service.post('/pool/v1/discover', { pool: 'smtp.silent-pool.net' }),
      503,
      postError('dns_unavailable'),
    );
    // Within CHECK_DEADLINE_MS, with slack.
    expect(performance.now() - started).toBeLessThan(service.deadlineMs + 1000);
  });

  it('spends no quota on a refused discover', async () => {
    const before = await remaining();
    await service.post('/pool/v1/discover', { pool: 'localhost' });
    await service.post('/pool/v1/discover', {});
    expect(await remaining()).toBe(before);
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
    expect(Object.keys(doc.paths[`${base}/status`] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths[`${base}/{token}`] ?? {})).toEqual(['get']);
  });

  it.each([
    ['GET', '/pool/v1/discover', 'POST'],
    ['GET', '/pool/v1/check', 'POST'],
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
      const started = performance.now();
      const response = await slow.post('/pool/v1/check', {
        pool: 'big.pool-three.net',
        ips: addresses,
      });
      // The silent list's timeout (1000 ms) once, not once per batch of addresses (16 batches of
      // two on a Worker).
      expect(performance.now() - started).toBeLessThan(4000);
      expect(response.status).toBe(200);
      const result = (await response.json()) as CheckResult;
      expect(result.results).toEqual(
        addresses.map(
          (ip) =>
            `${ip}: not listed on any of ${ipLists - 1} lists that answered; 1 did not answer${needKey}`,
        ),
      );
      const silent = (detail: AddressDetail) =>
        detail.unanswered.filter((list) => list.status !== 'disabled');
      expect(result.details.map(silent)).toEqual(
        addresses.map(() => [{ zone: 'psbl.surriel.com', status: 'timeout' }]),
      );
    } finally {
      await slow.close();
    }
  });
});
