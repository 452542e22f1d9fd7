import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxBodyBytes } from '../../../src/http/json-body.js';
import { reversedNibbles } from '../../../src/lib/ipv6.js';
import { sideZone } from '../../../src/reputation/lists/list-sides.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { keyedCounts, keylessCounts, keylessZoneList } from '../../../fixtures/keyless-lists.js';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import {
  type TestService,
  expectError,
  expectQuotaStatus,
  postError,
  startCaptchaProvider,
  startTestService,
} from '../../support/service.js';
import type { IpCheckAnswer, ListsAnswer, QuotaStatus } from '../../support/responses.js';
import { expectNotConfiguredWhileDnsIsDead } from '../common/dead-dns.js';

/**
 * The IP tool's check over real HTTP: POST /ip/v1, the result behind the token it hands out
 * (GET /ip/v1/{token}), the caller's quota (GET /ip/v1/status) and the tool's part of the OpenAPI
 * document; for each route its answers, its errors and its security cases (hostile input, the
 * quota, the captcha) side by side. Every error is a JSON body `{status: "error", code, error}`
 * (docs/DESIGN.md), with the five quota fields on POST routes and the headers that go with some
 * (Allow, Retry-After); odd input never reaches a 500 (the 500 of an unexpected failure:
 * internal-error.test.ts). The fixture DNS world (the default zone list plus a sender's forward
 * and reverse zones) is answered in memory; on the wire: test/tools/common/over-doh.test.ts. The same suite
 * runs inside workerd against the Worker (test/workerd/vitest.config.ts).
 */

const listedIp = '185.220.101.5';
const cleanIp = '8.8.4.4';
const senderIp = '185.12.34.56';
const mismatchedIp = '185.12.34.57';
/** An address of Google's network, and a sender with forward-confirmed reverse DNS. */
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
      // Names that lead inside: refused like the private addresses themselves.
      'intranet.sender-fixture.net': { A: ['10.1.2.3', '192.168.0.10'] },
      'loopback.sender-fixture.net': { A: ['127.0.0.1'] },
      'v6only.sender-fixture.net': { AAAA: ['2001:db8::1'] },
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
  // A domain whose name servers fail every look-up.
  { origin: 'broken-dns.net', behaviour: 'servfail' },
];

const quotaFields = ['configured', 'dailyLimit', 'dailyRemaining', 'captchaRequired'];
const resultFields = ['kind', 'target', 'ip', 'ptr', 'ip_score', 'token', 'from_cache'];

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

async function check(body: unknown): Promise<IpCheckAnswer> {
  const response = await service.post('/ip/v1', body);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as IpCheckAnswer;
}

/** The error body of any other route: only the error triple. */
function plainError(code: string) {
  return { status: 'error', code, error: expect.any(String) };
}

function rawPost(
  body: RequestInit['body'],
  headers: Record<string, string> = {},
): Promise<Response> {
  return service.fetch(service.url('/ip/v1'), { method: 'POST', body, headers });
}

describe('POST /ip/v1', () => {
  describe('happy path', () => {
    it('answers exactly the contract fields for a clean address, siteKey absent without captcha', async () => {
      // An address no other test checks: a fresh check, spending one unit.
      const fresh = '9.9.9.10';
      const before = (await (await service.get('/ip/v1/status')).json()) as QuotaStatus;
      const result = await check({ target: fresh });
      expect(Object.keys(result).sort()).toEqual([...resultFields, ...quotaFields].sort());
      expect(result).toMatchObject({
        kind: 'ipv4',
        target: fresh,
        ip: fresh,
        ptr: '',
        from_cache: false,
        configured: true,
        dailyLimit: 50,
        dailyRemaining: before.dailyRemaining - 1,
        captchaRequired: false,
      });
      expect(result.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      // Not listed, but without PTR: not a good mail sender (docs/score.md#what-receivers-require).
      expect(result.ip_score).toMatchObject({
        listed: 0,
        verdict: 'fair',
        confidence: 'high',
        rdns: { ptr: '', names: [], fcrdns: 'none' },
      });
      // Every list answered but those waiting for a key, which are shown and never asked.
      expect(result.ip_score.needs_key).toBe((await keyedCounts()).ipv4);
      expect(result.ip_score.answered).toBe(result.ip_score.total - result.ip_score.needs_key);
      const answering = result.ip_score.lists.filter((list) => list.key === undefined);
      expect(answering.every((list) => list.status === 'clean')).toBe(true);
      // No PTR is the one finding: it costs the documented 10 points, and the ptr rule holds the
      // score under 80.
      expect(result.ip_score.factors).toEqual([
        {
          kind: 'requirement',
          source: 'Mail requirements',
          detail: 'held under 80, not a good mail sender: no PTR record',
          points: -11,
        },
        { kind: 'reverse_dns', source: 'PTR', detail: 'no PTR record', points: -10 },
      ]);
      expect(result.ip_score.score).toBe(79);
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
        expect.objectContaining({
          kind: 'requirement',
          detail: 'held under 80, not a good mail sender: PTR not confirmed forward (FCrDNS)',
        }),
        expect.objectContaining({ kind: 'reverse_dns', source: 'FCrDNS', points: -10 }),
      ]);
      expect(result.ip_score).toMatchObject({ score: 79, verdict: 'fair' });
    });

    it('reports a listed address with its lists, factors and a poor verdict', async () => {
      const result = await check({ target: listedIp });
      const score = result.ip_score;
      expect(score.listed).toBe(2);
      const listed = score.lists
        .filter((list) => list.status === 'listed')
        .map((list) => list.zone);
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

  describe('IPv6', () => {
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
        // No PTR under ip6.arpa: not a good mail sender.
        verdict: 'fair',
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
              const { lists } = (await (await unproven.get('/lists')).json()) as ListsAnswer;
              return lists.find((list) => list.zone === 'zen.spamhaus.org')?.ipv6?.state;
            },
            { timeout: 5000, interval: 100 },
          )
          .toBe('disabled');
        const v6 = (await (
          await unproven.post('/ip/v1', { target: cleanIp6 })
        ).json()) as IpCheckAnswer;
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
        const v4 = (await (
          await unproven.post('/ip/v1', { target: cleanIp })
        ).json()) as IpCheckAnswer;
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

  describe('result cache', () => {
    it('answers a repeat within RESULT_TTL_S from the cache, same token, no quota spent', async () => {
      const first = await check({ target: '1.0.0.1' });
      const repeat = await check({ target: ' 1.0.0.1 ' });
      expect(first.from_cache).toBe(false);
      expect(repeat.from_cache).toBe(true);
      expect(repeat.token).toBe(first.token);
      expect(repeat.ip_score).toEqual(first.ip_score);
      expect(repeat.dailyRemaining).toBe(first.dailyRemaining);
      const status = (await (await service.get('/ip/v1/status')).json()) as QuotaStatus;
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
        const first = (await (
          await uncached.post('/ip/v1', { target: cleanIp })
        ).json()) as IpCheckAnswer;
        const second = (await (
          await uncached.post('/ip/v1', { target: cleanIp })
        ).json()) as IpCheckAnswer;
        expect(second.from_cache).toBe(false);
        expect(second.token).not.toBe(first.token);
        expect(second.dailyRemaining).toBe(first.dailyRemaining - 1);
      } finally {
        await uncached.close();
      }
    });
  });

  describe('400 for a target or body it cannot check', () => {
    it('invalid_json for a body that is not JSON', async () => {
      await expectError(
        await service.post('/ip/v1', '{"target": '),
        400,
        postError('invalid_json'),
      );
    });

    it.each([
      ['no target', {}],
      ['only a captcha token', { 'smart-token': 'x' }],
      ['a target that is a number', { target: 8 }],
      ['a target that is null', { target: null }],
      ['a target that is a nested object', { target: { ip: '8.8.4.4' } }],
      ['a target that is an array', { target: ['8.8.4.4'] }],
      ['an alias q that is a boolean', { q: true }],
      ['a captcha token that is a number', { target: '8.8.4.4', 'smart-token': 5 }],
      ['a target longer than any host name', { target: 'a'.repeat(5000) }],
    ])('invalid_request for %s', async (_, body) => {
      await expectError(await service.post('/ip/v1', body), 400, postError('invalid_request'));
    });

    it.each([
      ['an array', '["8.8.4.4"]'],
      ['a string', '"8.8.4.4"'],
      ['a number', '42'],
      ['null', 'null'],
    ])('invalid_request for a body that is %s, not an object', async (_, body) => {
      await expectError(await service.post('/ip/v1', body), 400, postError('invalid_request'));
    });

    it.each([
      ['a short IPv4 form', '1.2.3'],
      ['an octal-looking IPv4', '010.8.4.4'],
      ['an octet over 255', '8.8.4.256'],
      ['five octets', '8.8.4.4.4'],
      ['an empty string', ''],
      ['only spaces', '   '],
      ['a URL', 'http://8.8.4.4/'],
      ['two "::" in an IPv6 address', '2001:db8::1::1'],
      ['nine IPv6 groups', '1:2:3:4:5:6:7:8:9'],
      ['an IPv6 group of five digits', '2a00:14500::1'],
      ['an IPv6 address with a zone index', 'fe80::1%eth0'],
      ['an IPv6 address in brackets', '[2a00:1450::1]'],
      ['an IPv6 network', '2a00:1450::/32'],
      ['an IPv6 address ending in a short IPv4 form', '::ffff:1.2.3'],
      ['a label with an underscore', 'mail_1.sender-fixture.net'],
      ['a NUL byte', '8.8.4.4\u0000'],
      ['a NUL inside a host name', 'mail.sender\u0000fixture.net'],
      ['a lone surrogate', 'mail.\ud800.net'],
      ['control characters', '\u0007\u001b[31m.net'],
      ['symbols that no IDNA maps', '☃☃☃...'],
      ['a name over 253 characters', `${'a'.repeat(60)}.`.repeat(5) + 'net'],
    ])('invalid_target for a malformed target: %s', async (_, target) => {
      await expectError(await service.post('/ip/v1', { target }), 400, postError('invalid_target'));
    });

    it.each([
      ['a private address', '10.0.0.1'],
      ['loopback', '127.0.0.1'],
      ['link-local', '169.254.1.1'],
      ['CGNAT', '100.64.0.1'],
      ['multicast', '224.0.0.1'],
      ['a documentation range', '203.0.113.9'],
      ['the broadcast address', '255.255.255.255'],
      ['"this network"', '0.0.0.0'],
      ['localhost', 'localhost'],
      ['a single label', 'mailhost'],
      ['a .local name', 'printer.local'],
      ['an .internal name', 'db.corp.internal'],
      ['a .home.arpa name', 'nas.home.arpa'],
      ['a reverse-mapping name', '4.4.8.8.in-addr.arpa'],
    ])('invalid_target for a target that is not public: %s', async (_, target) => {
      await expectError(await service.post('/ip/v1', { target }), 400, postError('invalid_target'));
    });

    /** RFC 6890 and the IANA IPv6 special-purpose registry, and what docs/ipv6.md adds to it. */
    it.each([
      ['the unspecified address', '::'],
      ['loopback', '::1'],
      ['IPv4-mapped, of a private address', '::ffff:10.0.0.1'],
      ['IPv4-mapped, of a public address', '::ffff:8.8.4.4'],
      ['IPv4-mapped, in hexadecimal', '::ffff:808:404'],
      ['IPv4-compatible (deprecated)', '::8.8.4.4'],
      ['IPv4-translated (RFC 6145)', '::ffff:0:808:404'],
      ['NAT64 well-known prefix (RFC 6052)', '64:ff9b::808:404'],
      ['NAT64 local-use prefix (RFC 8215)', '64:ff9b:1::a00:1'],
      ['discard-only (RFC 6666)', '100::1'],
      ['dummy prefix (RFC 9780)', '100:0:0:1::1'],
      ['IETF protocol assignments', '2001:1::1'],
      ['Teredo (RFC 4380)', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
      ['benchmarking (RFC 5180)', '2001:2::1'],
      ['ORCHID (RFC 4843)', '2001:10::1'],
      ['ORCHIDv2 (RFC 7343)', '2001:20::1'],
      ['DRIP entity tags (RFC 9374)', '2001:30::1'],
      ['documentation (RFC 3849)', '2001:db8::1'],
      ['documentation (RFC 9637)', '3fff::1'],
      ['6to4 (RFC 3056)', '2002:a00:1::1'],
      ['segment routing (RFC 9602)', '5f00::1'],
      ['unique local (RFC 4193)', 'fd12:3456:789a::1'],
      ['unique local, fc00::/8', 'fc00::1'],
      ['link-local', 'fe80::1'],
      ['site-local (deprecated, RFC 3879)', 'fec0::1'],
      ['multicast', 'ff02::1'],
      ['space the IETF still reserves', '4000::1'],
    ])(
      'invalid_target, as for a private IPv4 address, for an IPv6 address that is not public: %s',
      async (_, target) => {
        const response = await service.post('/ip/v1', { target });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual(
          postError('invalid_target', `${target} is not a public IPv6 address`),
        );
      },
    );

    it.each([
      ['only private addresses', 'intranet.sender-fixture.net'],
      ['only loopback', 'loopback.sender-fixture.net'],
    ])('invalid_target for a host name resolving to %s', async (_, target) => {
      const response = await service.post('/ip/v1', { target });
      const body = (await response.json()) as { error: string };
      expect(response.status).toBe(400);
      expect(body).toEqual(postError('invalid_target'));
      // The refusal names no internal address: the service is no oracle for internal DNS.
      expect(body.error).not.toMatch(/10\.1\.2\.3|192\.168|127\.0\.0\.1/);
    });

    it('invalid_target for a host name that does not exist (NXDOMAIN)', async () => {
      await expectError(
        await service.post('/ip/v1', { target: 'nowhere.sender-fixture.net' }),
        400,
        postError('invalid_target'),
      );
    });

    it('invalid_target for a host name whose only address is a documentation IPv6 address', async () => {
      await expectError(
        await service.post('/ip/v1', { target: 'v6only.sender-fixture.net' }),
        400,
        postError('invalid_target'),
      );
    });
  });

  describe('503 dns_unavailable', () => {
    it('when the resolver cannot resolve a host name target (SERVFAIL)', async () => {
      await expectError(
        await service.post('/ip/v1', { target: 'mail.broken-dns.net' }),
        503,
        postError('dns_unavailable'),
      );
    });
  });

  describe('503 not_configured', () => {
    it('reports configured: false in the ip status and refuses its POST while DNS is dead', async () => {
      await expectNotConfiguredWhileDnsIsDead('ip', '/ip/v1', { target: '8.8.4.4' });
    });
  });

  describe('security: bodies too large or not JSON (413, 415)', () => {
    it('413 body_too_large for a body over the limit', async () => {
      const body = JSON.stringify({ target: '8.8.4.4', pad: 'x'.repeat(maxBodyBytes) });
      await expectError(await service.post('/ip/v1', body), 413, postError('body_too_large'));
    });

    it('413 body_too_large for a body over the limit sent without a length (chunked)', async () => {
      const chunk = new TextEncoder().encode(`{"pad":"${'x'.repeat(maxBodyBytes)}"}`);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(chunk);
          controller.close();
        },
      });
      const response = await service.fetch(service.url('/ip/v1'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      await expectError(response, 413, postError('body_too_large'));
    });

    it.each([
      ['text/plain', { 'content-type': 'text/plain' }],
      ['form data', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['a JSON look-alike', { 'content-type': 'application/jsonp' }],
    ])('415 unsupported_media_type for %s', async (_, headers) => {
      await expectError(
        await rawPost('{"target":"8.8.4.4"}', headers),
        415,
        postError('unsupported_media_type'),
      );
    });

    it('415 unsupported_media_type without a Content-Type', async () => {
      const body = new TextEncoder().encode('{"target":"8.8.4.4"}');
      await expectError(await rawPost(body), 415, postError('unsupported_media_type'));
    });

    it.each([
      ['a charset parameter', 'application/json; charset=utf-8'],
      ['upper case', 'Application/JSON'],
      ['a structured suffix', 'application/vnd.api+json'],
    ])('accepts JSON sent with %s', async (_, contentType) => {
      const response = await rawPost('{"target":"8.8.4.4"}', { 'content-type': contentType });
      expect(response.status).toBe(200);
    });
  });

  describe('security: hostile input is never a 500', () => {
    // The route validator's own media-type gate refuses these; the refusal must still be ours.
    it.each([
      ['a space before the parameters', 'application/json ; charset=utf-8'],
      ['a trailing semicolon', 'application/json;'],
      ['a parameter without a value', 'application/json; charset'],
      ['an underscore in the subtype prefix', 'application/vnd_x+json'],
      ['two media types', 'application/json, text/plain'],
    ])('answers 415 unsupported_media_type for a Content-Type with %s', async (_, contentType) => {
      await expectError(
        await rawPost('{"target":"8.8.4.4"}', { 'content-type': contentType }),
        415,
        postError('unsupported_media_type'),
      );
    });

    it.each([
      ['a deeply nested target', `{"target":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`],
      ['a prototype key', '{"__proto__":{"target":"8.8.4.4"}}'],
      ['a constructor key', '{"constructor":{"prototype":{"x":1}},"target":1}'],
      ['duplicate keys', '{"target":"8.8.4.4","target":{"x":1}}'],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
      ['an empty body', ''],
    ])('answers a 4xx JSON error for %s', async (_, body) => {
      const response = await rawPost(body, { 'content-type': 'application/json' });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(await response.json()).toMatchObject({ status: 'error', code: expect.any(String) });
    });

    it('ignores unknown fields, however deeply nested', async () => {
      const nested = `${'['.repeat(2000)}${']'.repeat(2000)}`;
      const response = await rawPost(`{"target":"8.8.4.4","x":${nested}}`, {
        'content-type': 'application/json',
      });
      expect(response.status).toBe(200);
    });

    it('accepts a JSON body that starts with a byte order mark (RFC 8259 §8.1 allows ignoring it)', async () => {
      const response = await rawPost('\ufeff{"target":"8.8.4.4"}', {
        'content-type': 'application/json',
      });
      expect(response.status).toBe(200);
    });

    it('answers a 4xx for a huge target string just under the body limit', async () => {
      const target = '1'.repeat(maxBodyBytes - 20);
      const response = await service.post('/ip/v1', { target });
      expect(response.status).toBe(400);
    });

    it('answers a 4xx for unicode garbage in every field', async () => {
      const garbage = '\u202e\u0000\ud83d\ude00\ufffd\u200d\u0301';
      const response = await service.post('/ip/v1', {
        target: garbage,
        q: garbage,
        captchaToken: garbage,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(postError('invalid_target'));
    });

    it('answers a 4xx for garbage in the path', async () => {
      const response = await service.fetch(`${service.url('/ip/v1/')}%E0%A4%A`);
      expect(response.status).toBe(404);
    });
  });

  describe('security: never leaks internals', () => {
    it('logs refused requests without a stack trace, and answers no stack in their error bodies', async () => {
      const stackLike = /at .+\(.+:\d+:\d+\)|node_modules|\/src\//;
      const before = service.logs.length;
      const refused = [
        await service.post('/ip/v1', '{'),
        await service.post('/ip/v1', { target: '10.0.0.1' }),
        await service.get('/ip/v1/AAAAAAAAAAAAAAAAAAAAAA'),
        await service.fetch(service.url('/ip/v1'), { method: 'PUT' }),
      ];
      expect(refused.map((response) => response.status)).toEqual([400, 400, 404, 405]);
      for (const response of refused) expect(await response.text()).not.toMatch(stackLike);
      const logged = () =>
        service.logs.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
      await expect
        .poll(() => logged().filter((entry) => entry.msg === 'request'))
        .toEqual(
          [400, 400, 404, 405].map((status) => expect.objectContaining({ msg: 'request', status })),
        );
      for (const line of service.logs.slice(before)) expect(line).not.toMatch(stackLike);
    });
  });

  describe('security: the daily quota (429)', () => {
    it('answers 429 with Retry-After and the exhausted quota once the daily limit is used', async () => {
      const limited = await startTestService({
        env: { DAILY_LIMIT: '1' },
        now: new Date('2026-03-01T23:00:00Z'),
      });
      try {
        expect((await limited.post('/ip/v1', { target: '8.8.4.4' })).status).toBe(200);
        const response = await limited.post('/ip/v1', { target: '8.8.8.8' });
        expect(response.headers.get('retry-after')).toBe('3600');
        await expectError(response, 429, {
          ...postError('quota_exceeded'),
          dailyLimit: 1,
          dailyRemaining: 0,
        });
      } finally {
        await limited.close();
      }
    });
  });

  describe('security: the captcha (403)', () => {
    it('refuses a check without a captcha token, and one with a rejected token', async () => {
      const provider = await startCaptchaProvider({ goodTokens: ['good'] });
      const guarded = await startTestService({
        env: {
          CAPTCHA_PROVIDER: 'turnstile',
          CAPTCHA_SITE_KEY: 'site-key',
          CAPTCHA_SECRET: 'secret',
          CAPTCHA_VERIFY_URL: provider.urlFor('turnstile'),
        },
      });
      try {
        const captchaDue = { captchaRequired: true, siteKey: 'site-key' };
        await expectError(await guarded.post('/ip/v1', { target: '8.8.4.4' }), 403, {
          ...postError('captcha_required'),
          ...captchaDue,
        });
        await expectError(
          await guarded.post('/ip/v1', { target: '8.8.4.4', 'smart-token': 'bad' }),
          403,
          { ...postError('captcha_failed'), ...captchaDue },
        );
      } finally {
        await guarded.close();
        await provider.close();
      }
    });
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

describe('another method on an IP route', () => {
  it.each([
    ['DELETE', '/ip/v1/status', 'GET, HEAD'],
    ['POST', '/ip/v1/status', 'GET, HEAD'],
    ['PUT', '/ip/v1', 'POST'],
    ['GET', '/ip/v1', 'POST'],
    ['PATCH', '/ip/v1/AAAAAAAAAAAAAAAAAAAAAA', 'GET, HEAD'],
  ])('405 method_not_allowed for %s %s, with Allow: %s', async (method, path, allow) => {
    const response = await service.fetch(service.url(path), { method });
    expect(response.headers.get('allow')).toBe(allow);
    await expectError(response, 405, plainError('method_not_allowed'));
  });
});

describe('the IP tool in the OpenAPI document', () => {
  describe('its routes', () => {
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
      // HEAD wherever GET is answered (docs/openapi.md).
      expect(Object.keys(document.paths[`${base}/ip/v1/status`] ?? {})).toEqual(['get', 'head']);
      expect(Object.keys(document.paths[`${base}/ip/v1`] ?? {})).toEqual(['post']);
      expect(Object.keys(document.paths[`${base}/ip/v1/{token}`] ?? {})).toEqual(['get', 'head']);
      for (const share of ['badge.svg', 'card']) {
        expect(Object.keys(document.paths[`${base}/ip/v1/share/{token}/${share}`] ?? {})).toEqual([
          'get',
          'head',
        ]);
      }
    });
  });

  describe('its schemas', () => {
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
});
