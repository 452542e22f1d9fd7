import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reversedNibbles } from '../../src/reputation/targets/ipv6.js';
import { sideZone } from '../../src/reputation/lists/list-sides.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { dnsblWorld } from '../fixtures/dnsbl-world.js';
import { keyedCounts, keylessCounts, keylessZoneList } from '../fixtures/keyless-lists.js';
import type { FixtureZone } from '../fixtures/dns-server.js';
import { type TestService, expectQuotaStatus, startTestService } from '../support/service.js';

/**
 * The IP tool over real HTTP: POST /ip/v1, GET /ip/v1/{token}, GET /ip/v1/status and the OpenAPI
 * document, against the fixture DNS world (the default zone list plus a sender's forward and
 * reverse zones).
 */

const listedIp = '185.220.101.5';
const cleanIp = '8.8.4.4';
const senderIp = '185.12.34.56';
const mismatchedIp = '185.12.34.57';
/** The issue's own example, and a sender with forward-confirmed reverse DNS. */
const cleanIp6 = '2a00:1450:4001:80b::200e';
const senderIp6 = '2a01:4f8:10a:1::25';
const listedIp6 = '2a01:4f8:10a:1::66';

const senderZones: FixtureZone[] = [
  {
    origin: 'in-addr.arpa',
    records: {
      '56.34.12.185.in-addr.arpa': { PTR: ['mail.sender-fixture.net'] },
      // The PTR name exists but points at another address: FCrDNS fails.
      '57.34.12.185.in-addr.arpa': { PTR: ['liar.sender-fixture.net'] },
    },
  },
  {
    origin: 'sender-fixture.net',
    records: {
      'mail.sender-fixture.net': { A: [senderIp] },
      'liar.sender-fixture.net': { A: ['185.12.34.99'] },
      'mail6.sender-fixture.net': { AAAA: [senderIp6] },
      'dual.sender-fixture.net': { A: [senderIp], AAAA: [senderIp6] },
    },
  },
  {
    origin: 'ip6.arpa',
    records: { [`${reversedNibbles(senderIp6)}.ip6.arpa`]: { PTR: ['mail6.sender-fixture.net'] } },
  },
  // mail.bücher-fixture.net, as DNS knows it (IDNA A-labels).
  {
    origin: 'xn--bcher-fixture-wob.net',
    records: { 'mail.xn--bcher-fixture-wob.net': { A: [senderIp] } },
  },
];

const quotaFields = ['configured', 'dailyLimit', 'dailyRemaining', 'captchaRequired'];
const resultFields = ['kind', 'target', 'ip', 'ptr', 'ip_score', 'token', 'from_cache'];

interface IpResult {
  kind: string;
  target: string;
  ip: string;
  ptr: string;
  token: string;
  from_cache: boolean;
  dailyRemaining: number;
  ip_score: {
    score: number;
    verdict: string;
    confidence: string;
    listed: number;
    answered: number;
    disabled: number;
    needs_key: number;
    total: number;
    summary: string;
    factors: { kind: string; source: string; detail: string; points: number }[];
    lists: { zone: string; status: string; key?: string; listings?: { meaning: string }[] }[];
    rdns: { ptr: string; names: string[]; fcrdns: string };
    addresses?: string[];
  };
  [field: string]: unknown;
}

let service: TestService;
beforeAll(async () => {
  service = await startTestService({
    listings: {
      [listedIp]: { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] },
      [listedIp6]: { 'zen.spamhaus.org': ['127.0.0.3'] },
    },
    zones: senderZones,
  });
});
afterAll(() => service.close());

async function check(body: unknown): Promise<IpResult> {
  const response = await service.post('/ip/v1', body);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as IpResult;
}

describe('POST /ip/v1, happy path', () => {
  it('answers exactly the contract fields for a clean address, siteKey absent without captcha', async () => {
    const result = await check({ target: cleanIp });
    expect(Object.keys(result).sort()).toEqual([...resultFields, ...quotaFields].sort());
    expect(result).toMatchObject({
      kind: 'ipv4',
      target: cleanIp,
      ip: cleanIp,
      ptr: '',
      from_cache: false,
      configured: true,
      dailyLimit: 50,
      dailyRemaining: 49,
      captchaRequired: false,
    });
    expect(result.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(result.ip_score).toMatchObject({
      listed: 0,
      verdict: 'good',
      confidence: 'high',
      rdns: { ptr: '', names: [], fcrdns: 'none' },
    });
    // Every list answered but those waiting for a key, which are shown and never asked.
    expect(result.ip_score.needs_key).toBe((await keyedCounts()).ipv4);
    expect(result.ip_score.answered).toBe(result.ip_score.total - result.ip_score.needs_key);
    const answering = result.ip_score.lists.filter((list) => list.key === undefined);
    expect(answering.every((list) => list.status === 'clean')).toBe(true);
    // No PTR is the one finding: it costs the documented 10 points.
    expect(result.ip_score.factors).toEqual([
      { kind: 'reverse_dns', source: 'PTR', detail: 'no PTR record', points: -10 },
    ]);
    expect(result.ip_score.score).toBe(90);
  });

  it('accepts the alias q for target', async () => {
    const result = await check({ q: '8.8.8.8' });
    expect(result).toMatchObject({ kind: 'ipv4', target: '8.8.8.8', ip: '8.8.8.8' });
  });

  it('prefers target when both target and q are given', async () => {
    const result = await check({ target: '1.1.1.1', q: '9.9.9.9' });
    expect(result.ip).toBe('1.1.1.1');
  });

  it('checks a host name as kind domain, on its address, with FCrDNS passing', async () => {
    const result = await check({ target: 'Mail.Sender-Fixture.NET.' });
    expect(result).toMatchObject({
      kind: 'domain',
      target: 'mail.sender-fixture.net',
      ip: senderIp,
      ptr: 'mail.sender-fixture.net',
    });
    expect(result.ip_score.rdns).toMatchObject({
      ptr: 'mail.sender-fixture.net',
      names: ['mail.sender-fixture.net'],
      fcrdns: 'pass',
    });
    expect(result.ip_score.addresses).toEqual([senderIp]);
    expect(result.ip_score.factors).toEqual([]);
    expect(result.ip_score.score).toBe(100);
  });

  it('checks an internationalised host name under its IDNA ASCII form', async () => {
    const result = await check({ target: 'MAIL.Bücher-Fixture.net' });
    expect(result).toMatchObject({
      kind: 'domain',
      target: 'mail.xn--bcher-fixture-wob.net',
      ip: senderIp,
    });
  });

  it('reports FCrDNS fail when the PTR name does not resolve back to the address', async () => {
    const result = await check({ target: mismatchedIp });
    expect(result.ptr).toBe('liar.sender-fixture.net');
    expect(result.ip_score.rdns.fcrdns).toBe('fail');
    expect(result.ip_score.factors).toEqual([
      expect.objectContaining({ kind: 'reverse_dns', source: 'FCrDNS', points: -10 }),
    ]);
  });

  it('reports a listed address with its lists, factors and a poor verdict', async () => {
    const result = await check({ target: listedIp });
    const score = result.ip_score;
    expect(score.listed).toBe(2);
    const listed = score.lists.filter((list) => list.status === 'listed').map((list) => list.zone);
    expect(listed.sort()).toEqual(['bl.spamcop.net', 'zen.spamhaus.org']);
    const zen = score.lists.find((list) => list.zone === 'zen.spamhaus.org');
    expect(zen?.listings?.[0]?.meaning).toMatch(/SBL/);
    const listingSources = score.factors
      .filter((factor) => factor.kind === 'listing')
      .map((factor) => [factor.source, factor.points]);
    expect(listingSources).toEqual([
      ['Spamhaus ZEN', -40],
      ['SpamCop Blocking List', -30],
    ]);
    // 100 - 40 - 30 - 10 (no PTR).
    expect(score.score).toBe(20);
    expect(score.verdict).toBe('poor');
  });

  it('gives the same score for the same findings on every check', async () => {
    const first = await check({ target: mismatchedIp });
    const second = await check({ target: mismatchedIp });
    expect(second.ip_score.score).toBe(first.ip_score.score);
    expect(second.ip_score.factors).toEqual(first.ip_score.factors);
  });
});

describe('POST /ip/v1, IPv6', () => {
  /** The lists that cover IPv6, of those the service asks, and of those waiting for a key. */
  let ipv6Lists: number;
  let keyedIpv6Lists: number;
  beforeAll(async () => {
    ipv6Lists = (await keylessCounts()).ipv6;
    keyedIpv6Lists = (await keyedCounts()).ipv6;
  });

  it('answers the contract fields for an IPv6 address, kind ipv6, in RFC 5952 form', async () => {
    const result = await check({ target: '2A00:1450:4001:080B:0000:0000:0000:200E' });
    expect(Object.keys(result).sort()).toEqual([...resultFields, ...quotaFields].sort());
    expect(result).toMatchObject({ kind: 'ipv6', target: cleanIp6, ip: cleanIp6, ptr: '' });
    expect(result.ip_score).toMatchObject({
      listed: 0,
      answered: ipv6Lists,
      needs_key: keyedIpv6Lists,
      total: ipv6Lists + keyedIpv6Lists,
      verdict: 'good',
      confidence: 'high',
      rdns: { fcrdns: 'none' },
    });
    expect(result.ip_score.summary).toMatch(
      new RegExp(
        `^not listed on any of ${ipv6Lists} lists; \\d+ do not cover IPv6; ${keyedIpv6Lists} need a key$`,
      ),
    );
  });

  it('asks the lists in the nibble format of RFC 5782 §2.4, and only those that cover IPv6', async () => {
    const before = (await service.dnsQueries()).length;
    await check({ target: '2a00:1450:4001:80b::200f' });
    const queries = (await service.dnsQueries()).slice(before);
    const asked = queries.filter(
      (query) => query.type === 'A' && !/^[0-9.]+(in-addr)?/.test(query.name),
    );
    const nibbles = reversedNibbles('2a00:1450:4001:80b::200f');
    const covering = (await keylessZoneList()).filter((zone) => zone.ipv6 !== undefined);
    expect(
      asked
        .map((query) => query.name)
        .filter((name) => name.startsWith(nibbles))
        .sort(),
    ).toEqual(covering.map((zone) => `${nibbles}.${sideZone(zone, 'ipv6')}`).sort());
    expect(asked.map((query) => query.name)).toContain(`${nibbles}.bl.ipv6.spameatingmonkey.net`);
    expect(queries).toContainEqual({
      name: `${nibbles}.ip6.arpa`,
      type: 'PTR',
    });
  });

  it('reports a listed IPv6 address and forward-confirms an IPv6 PTR through AAAA', async () => {
    const listed = await check({ target: listedIp6 });
    expect(listed.ip_score).toMatchObject({ listed: 1, verdict: 'poor' });
    const confirmed = await check({ target: senderIp6 });
    expect(confirmed).toMatchObject({ ptr: 'mail6.sender-fixture.net' });
    expect(confirmed.ip_score.rdns.fcrdns).toBe('pass');
  });

  it('checks the IPv4 address of a host name with both A and AAAA, and lists both', async () => {
    const result = await check({ target: 'dual.sender-fixture.net' });
    expect(result).toMatchObject({ kind: 'domain', ip: senderIp });
    expect(result.ip_score.addresses).toEqual([senderIp, senderIp6]);
  });

  it('checks the IPv6 address of a host name with only AAAA', async () => {
    const result = await check({ target: 'mail6.sender-fixture.net' });
    expect(result).toMatchObject({
      kind: 'domain',
      ip: senderIp6,
      ptr: 'mail6.sender-fixture.net',
    });
  });

  it("never reads a list's NXDOMAIN for an IPv6 address as clean while its IPv6 side is unproven", async () => {
    const zones = await loadZoneList();
    const unproven = await startTestService({ services: { selfTestIntervalMs: 200 } });
    try {
      // ZEN stops listing its IPv6 test entry (::FFFF:7F00:2); its IPv4 side still answers as documented.
      const entry = `${reversedNibbles('::ffff:7f00:2')}.zen.spamhaus.org`;
      await unproven.setZones(
        dnsblWorld(zones, {}).map((zone) => ({
          ...zone,
          records: Object.fromEntries(
            Object.entries(zone.records ?? {}).filter(([name]) => name !== entry),
          ),
        })),
      );
      await expect
        .poll(
          async () => {
            const { lists } = (await (await unproven.get('/lists')).json()) as {
              lists: { zone: string; ipv6: { state: string } | null }[];
            };
            return lists.find((list) => list.zone === 'zen.spamhaus.org')?.ipv6?.state;
          },
          { timeout: 5000, interval: 100 },
        )
        .toBe('disabled');
      const v6 = (await (await unproven.post('/ip/v1', { target: cleanIp6 })).json()) as IpResult;
      expect(v6.ip_score.lists.find((list) => list.zone === 'zen.spamhaus.org')).toMatchObject({
        status: 'disabled',
        error: 'self-test: test entry ::ffff:7f00:2 is not listed',
      });
      expect(v6.ip_score).toMatchObject({
        answered: ipv6Lists - 1,
        disabled: 1 + keyedIpv6Lists,
        needs_key: keyedIpv6Lists,
        total: ipv6Lists + keyedIpv6Lists,
      });
      const v4 = (await (await unproven.post('/ip/v1', { target: cleanIp })).json()) as IpResult;
      expect(v4.ip_score.lists.find((list) => list.zone === 'zen.spamhaus.org')?.status).toBe(
        'clean',
      );
    } finally {
      await unproven.close();
    }
  });

  it('answers every spelling of one IPv6 address from one cached result, spending one unit', async () => {
    const first = await check({ target: '2a00:1450:4001:80b::2010' });
    const again = await check({ target: '2A00:1450:4001:80B:0:0:0:2010' });
    expect(first.from_cache).toBe(false);
    expect(again).toMatchObject({ from_cache: true, token: first.token, target: first.target });
    expect(again.dailyRemaining).toBe(first.dailyRemaining);
  });
});

describe('GET /ip/v1/{token}', () => {
  it('returns token, ip and ip_score equal to what the POST answered', async () => {
    const posted = await check({ target: '9.9.9.9' });
    const response = await service.get(`/ip/v1/${posted.token}`);
    expect(response.status).toBe(200);
    const stored = (await response.json()) as Record<string, unknown>;
    expect(stored).toMatchObject({ token: posted.token, ip: '9.9.9.9' });
    expect(stored.ip_score).toEqual(posted.ip_score);
    // Everything the POST said about the check, without the caller's quota and cache flags.
    const checkFields = Object.fromEntries(
      Object.entries(posted).filter(
        ([field]) => ![...quotaFields, 'siteKey', 'from_cache'].includes(field),
      ),
    );
    expect(stored).toEqual(checkFields);
  });

  it('answers 404 not_found for an unknown token of the right shape', async () => {
    const response = await service.get('/ip/v1/AAAAAAAAAAAAAAAAAAAAAA');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: 'error',
      code: 'not_found',
      error: expect.any(String),
    });
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'A'.repeat(500)],
    ['not base64url', 'AAAAAAAAAAAAAAAAAAAA%2B%2B'],
    ['an encoded NUL', 'AAAAAAAAAAAAAAAAAAAA%00A'],
  ])('answers 404 not_found for a malformed token (%s)', async (_, token) => {
    const response = await service.get(`/ip/v1/${token}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 'error', code: 'not_found' });
  });

  it('does not answer an IP token from another tool path', async () => {
    const posted = await check({ target: cleanIp });
    const response = await service.get(`/domain/v1/${posted.token}`);
    expect(response.status).toBe(404);
  });
});

describe('GET /ip/v1/status', () => {
  it('answers the quota status object', async () => {
    await expectQuotaStatus(await service.get('/ip/v1/status'), 50);
  });
});

describe('result cache', () => {
  it('answers a repeat within RESULT_TTL_S from the cache, same token, no quota spent', async () => {
    const first = await check({ target: '1.0.0.1' });
    const repeat = await check({ target: ' 1.0.0.1 ' });
    expect(first.from_cache).toBe(false);
    expect(repeat.from_cache).toBe(true);
    expect(repeat.token).toBe(first.token);
    expect(repeat.ip_score).toEqual(first.ip_score);
    expect(repeat.dailyRemaining).toBe(first.dailyRemaining);
    const status = (await (await service.get('/ip/v1/status')).json()) as IpResult;
    expect(status.dailyRemaining).toBe(first.dailyRemaining);
  });

  it('treats host names that differ only in case and trailing dot as the same request', async () => {
    const first = await check({ target: 'liar.sender-fixture.net' });
    const repeat = await check({ q: 'LIAR.sender-fixture.net.' });
    expect(repeat.from_cache).toBe(true);
    expect(repeat.token).toBe(first.token);
  });

  it('checks afresh when RESULT_TTL_S is 0', async () => {
    const uncached = await startTestService({ env: { RESULT_TTL_S: '0' } });
    try {
      const first = (await (await uncached.post('/ip/v1', { target: cleanIp })).json()) as IpResult;
      const second = (await (
        await uncached.post('/ip/v1', { target: cleanIp })
      ).json()) as IpResult;
      expect(second.from_cache).toBe(false);
      expect(second.token).not.toBe(first.token);
      expect(second.dailyRemaining).toBe(first.dailyRemaining - 1);
    } finally {
      await uncached.close();
    }
  });
});

describe('OpenAPI document', () => {
  it('is served at /tools/ip-reputation/openapi.json and lists every IP route', async () => {
    const response = await service.get('/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    // Paths are relative to the base path, which the document's `servers` carries.
    const base = '';
    expect(Object.keys(document.paths[`${base}/ip/v1/status`] ?? {})).toEqual(['get']);
    expect(Object.keys(document.paths[`${base}/ip/v1`] ?? {})).toEqual(['post']);
    expect(Object.keys(document.paths[`${base}/ip/v1/{token}`] ?? {})).toEqual(['get']);
    for (const share of ['badge.svg', 'card']) {
      expect(Object.keys(document.paths[`${base}/ip/v1/share/{token}/${share}`] ?? {})).toEqual([
        'get',
      ]);
    }
  });
});

describe('the OpenAPI document of the IP tool', () => {
  it('names ipv6 beside ipv4 and domain, and the lists that do not cover IPv6', async () => {
    const document = (await (await service.get('/openapi.json')).json()) as {
      components: {
        schemas: Record<string, { properties: Record<string, Record<string, unknown>> }>;
      };
    };
    const { schemas } = document.components;
    for (const schema of ['IpCheckResponse', 'IpStoredResult']) {
      expect(schemas[schema]?.properties.kind?.enum).toEqual(['ipv4', 'ipv6', 'domain']);
    }
    const score = JSON.stringify(schemas.IpScore);
    expect(score).toContain('"not_covered"');
    expect(JSON.stringify(schemas.ListResult)).toContain('does not cover IPv6');
    expect(JSON.stringify(schemas.IpCheckRequest)).toContain('RFC 4291');
  });
});
