import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confidenceOf } from '../../../src/reputation/checks/score.js';
import type { ListResult } from '../../../src/reputation/index.js';
import type { FixtureRecords, FixtureZone } from '../../../fixtures/dns-server.js';
import type { Listings } from '../../../fixtures/dnsbl-world.js';
import { keyedCounts, keylessCounts, keylessZoneList } from '../../../fixtures/keyless-lists.js';
import {
  type TestService,
  expectError,
  expectQuotaStatus,
  postError,
  startTestService,
} from '../../support/service.js';
import type { DomainCheckAnswer, QuotaStatus } from '../../support/responses.js';
import { expectNotConfiguredWhileDnsIsDead } from '../common/dead-dns.js';

/**
 * The domain tool's check over real HTTP: POST /domain/v1, the result behind its token
 * (GET /domain/v1/{token}), the caller's quota (GET /domain/v1/status) and the tool's part of the
 * OpenAPI document, each route's answers and errors side by side, against the fixture DNS world
 * (the default zone list plus the senders' own zones) answered in memory. The SPF evaluator has
 * its own unit tests; here each finding is followed from the DNS data to the JSON the caller
 * reads. What a hostile domain's DNS data can do: hostile-dns.test.ts, on the wire. The same
 * suite runs inside workerd against the Worker.
 */

/** `count` consecutive addresses of a /24 from `from` on, e.g. range('185.10.20', 16, 16). */
function range(prefix: string, from: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}.${from + index}`);
}

const spf = (record: string): FixtureRecords => ({ TXT: [record] });
const dmarc = (policy: string): FixtureRecords => ({
  TXT: [`v=DMARC1; p=${policy}; rua=mailto:dmarc@reports.net`],
});

/** An SPF chain twelve includes deep: the eleventh DNS-querying term is one too many. */
function longChain(): Record<string, FixtureRecords> {
  const records: Record<string, FixtureRecords> = {
    'long-chain.com': spf('v=spf1 include:l1.long-chain.com -all'),
    '_dmarc.long-chain.com': dmarc('reject'),
  };
  for (let level = 1; level <= 12; level++) {
    records[`l${level}.long-chain.com`] = spf(
      `v=spf1 ip4:185.70.0.${level} include:l${level + 1}.long-chain.com -all`,
    );
  }
  records['l13.long-chain.com'] = spf('v=spf1 ip4:185.70.0.13 -all');
  return records;
}

const senderZones: FixtureZone[] = [
  {
    // One zone for the whole TLD: a name it does not hold is NXDOMAIN, as on the real `com`.
    origin: 'com',
    records: {
      // IPv6 senders: an ip6 term, the MX host's AAAA, and nothing else.
      'six-sender.com': {
        TXT: ['v=spf1 mx ip6:2a01:4f8:20::7 -all'],
        MX: [{ exchange: 'mx.six-sender.com', priority: 10 }],
      },
      '_dmarc.six-sender.com': dmarc('reject'),
      'mx.six-sender.com': { A: ['185.60.2.10'], AAAA: ['2a01:4f8:20::25'] },
      // Sends over IPv6 only: once refused for having no IPv4 address.
      'only-six.com': { TXT: ['v=spf1 ip6:2a01:4f8:21::/64 -all'], AAAA: ['2a01:4f8:21::1'] },
      '_dmarc.only-six.com': dmarc('none'),
      // Every way SPF names senders, plus the MX hosts (one of them also named by the include).
      'sender-one.com': {
        TXT: [
          'google-site-verification=abc123',
          'v=spf1 include:_spf.sender-one.com mx a:out.sender-one.com/30 ip4:185.10.20.16/28' +
            ' ip4:185.30.0.0/24 ip4:185.9.0.1 ip6:2a00:1450:4000::/36 ~all',
        ],
        MX: [
          { exchange: 'mx2.sender-one.com', priority: 20 },
          { exchange: 'mx1.sender-one.com', priority: 10 },
        ],
      },
      '_spf.sender-one.com': spf('v=spf1 ip4:185.40.1.7 ip4:185.40.1.9 ip6:2a00:1450:4010::1 -all'),
      '_dmarc.sender-one.com': dmarc('reject'),
      'mx1.sender-one.com': { A: ['185.40.1.9'] },
      'mx2.sender-one.com': { A: ['185.40.1.2'] },
      'out.sender-one.com': { A: ['185.50.2.5'] },

      // Clean in every respect: SPF, MX, DMARC, no listing.
      'clean-sender.com': {
        ...spf('v=spf1 ip4:185.60.0.10 mx -all'),
        MX: [{ exchange: 'mail.clean-sender.com', priority: 10 }],
      },
      'mail.clean-sender.com': { A: ['185.60.0.11'] },
      '_dmarc.clean-sender.com': dmarc('reject'),

      'alias-sender.com': spf('v=spf1 ip4:185.60.0.20 -all'),
      'other-sender.com': spf('v=spf1 ip4:185.60.0.21 -all'),
      'quota-sender.com': spf('v=spf1 ip4:185.60.0.22 -all'),
      'cache-sender.com': spf('v=spf1 ip4:185.60.0.30 -all'),

      // No SPF record: the MX hosts are the senders.
      'mx-only.com': { MX: [{ exchange: 'mail.mx-only.com', priority: 10 }] },
      'mail.mx-only.com': { A: ['185.80.0.3', '185.80.0.1'] },
      // No MX either: the domain's own address is the implicit MX (RFC 5321 §5.1).
      'a-only.com': { A: ['185.80.0.2'] },

      // Two sender addresses listed: one on major lists, one on a minor one.
      'listed-sender.com': {
        ...spf('v=spf1 ip4:185.60.1.20 ip4:185.60.1.21 ip4:185.60.1.22 -all'),
        MX: [{ exchange: 'mail.listed-sender.com', priority: 10 }],
      },
      'mail.listed-sender.com': { A: ['185.60.1.22'] },
      '_dmarc.listed-sender.com': dmarc('none'),

      // Listed themselves (see `listings`), their senders clean.
      'spammy-sender.com': spf('v=spf1 ip4:185.61.0.1 -all'),
      '_dmarc.spammy-sender.com': dmarc('reject'),
      'odd-answer.com': spf('v=spf1 ip4:185.61.0.2 -all'),
      '_dmarc.odd-answer.com': dmarc('reject'),
      'phishy-sender.com': spf('v=spf1 ip4:185.61.0.3 -all'),
      '_dmarc.phishy-sender.com': dmarc('reject'),

      'no-dmarc.com': spf('v=spf1 ip4:185.62.0.1 -all'),

      // Four sender addresses, each on a major list.
      'many-listed.com': spf(
        'v=spf1 ip4:185.63.0.1 ip4:185.63.0.2 ip4:185.63.0.3 ip4:185.63.0.4 -all',
      ),
      '_dmarc.many-listed.com': dmarc('reject'),

      ...longChain(),

      'loop-sender.com': spf('v=spf1 ip4:185.71.0.1 include:spf.loop-sender.com -all'),
      'spf.loop-sender.com': spf('v=spf1 ip4:185.71.0.2 include:loop-sender.com -all'),
      '_dmarc.loop-sender.com': dmarc('reject'),
    },
  },
  // A domain whose own lookups all fail.
  { origin: 'broken-sender.net', behaviour: 'servfail' },
  // пример.рф, as DNS knows it (IDNA A-labels).
  {
    origin: 'xn--p1ai',
    records: {
      'xn--e1afmkfd.xn--p1ai': spf('v=spf1 ip4:185.90.0.1 -all'),
      '_dmarc.xn--e1afmkfd.xn--p1ai': dmarc('quarantine'),
    },
  },
];

const listings: Listings = {
  '185.60.1.20': { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] },
  '185.60.1.21': { 'psbl.surriel.com': ['127.0.0.2'] },
  '2a01:4f8:20::25': { 'zen.spamhaus.org': ['127.0.0.3'] },
  'spammy-sender.com': { 'dbl.spamhaus.org': ['127.0.1.2'] },
  // 127.0.1.255: DBL saying it was asked about an IP address, an error and never a listing.
  'odd-answer.com': { 'dbl.spamhaus.org': ['127.0.1.255'] },
  // SURBL bit 8 (PH); URIBL bits 2 (black) and 8 (red) in one answer.
  'phishy-sender.com': { 'multi.surbl.org': ['127.0.0.8'], 'multi.uribl.com': ['127.0.0.10'] },
  'xn--e1afmkfd.xn--p1ai': { 'dbl.spamhaus.org': ['127.0.1.2'] },
  ...Object.fromEntries(
    range('185.63.0', 1, 4).map((ip) => [ip, { 'zen.spamhaus.org': ['127.0.0.2'] }]),
  ),
};

const quotaFields = ['configured', 'dailyLimit', 'dailyRemaining', 'captchaRequired'];
const contractFields = ['domain', 'ips', 'token', 'from_cache', ...quotaFields];

let service: TestService;
/** How many lists the service asks about a domain, and about an IPv6 address. */
let lists: { domain: number; ipv6: number };
/** How many of the lists that cover them wait for a key: shown as disabled, never asked. */
let keyed: { domain: number; ipv6: number };
beforeAll(async () => {
  lists = await keylessCounts();
  keyed = await keyedCounts();
  service = await startTestService({ listings, zones: senderZones });
});
afterAll(() => service.close());

async function check(body: unknown): Promise<DomainCheckAnswer> {
  const response = await service.post('/domain/v1', body);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as DomainCheckAnswer;
}

function listOf(result: DomainCheckAnswer, zone: string): ListResult | undefined {
  return result.domain_score.lists.find((list) => list.zone === zone);
}

describe('POST /domain/v1', () => {
  describe('happy path', () => {
    it('answers the contract fields, with the domain, its sender IPs and a good score for a clean domain', async () => {
      const result = await check({ domain: 'clean-sender.com' });
      expect(Object.keys(result)).toEqual(expect.arrayContaining(contractFields));
      expect(result).not.toHaveProperty('siteKey');
      expect(result).toMatchObject({
        domain: 'clean-sender.com',
        ips: ['185.60.0.10', '185.60.0.11'],
        exists: true,
        from_cache: false,
        configured: true,
        dailyLimit: 50,
        captchaRequired: false,
      });
      expect(result.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(result.dailyRemaining).toEqual(expect.any(Number));
      expect(result.mx).toEqual([
        { exchange: 'mail.clean-sender.com', priority: 10, addresses: ['185.60.0.11'] },
      ]);
      expect(result.domain_score).toMatchObject({
        score: 100,
        verdict: 'good',
        confidence: 'high',
        factors: [],
        listed: 0,
        answered: lists.domain,
        needs_key: keyed.domain,
        total: lists.domain + keyed.domain,
      });
      const asked = (await keylessZoneList())
        .filter((zone) => zone.type === 'domain')
        .map((zone) => zone.zone);
      expect(
        result.domain_score.lists
          .filter((list) => list.status !== 'disabled')
          .map((list) => list.zone)
          .sort(),
      ).toEqual(asked.sort());
      expect(
        result.domain_score.lists.every((list) =>
          asked.includes(list.zone) ? list.status === 'clean' : list.status === 'disabled',
        ),
      ).toBe(true);
      expect(result.addresses).toMatchObject({ checked: 2, listed: 0, not_checked: [] });
      expect(result.addresses.results.map((address) => [address.ip, address.verdict])).toEqual([
        ['185.60.0.10', 'good'],
        ['185.60.0.11', 'good'],
      ]);
    });

    it('costs one unit of the daily quota for a fresh check', async () => {
      const before = (await (await service.get('/domain/v1/status')).json()) as QuotaStatus;
      // A domain no other test checks: never answered from the cache.
      const result = await check({ domain: 'quota-sender.com' });
      expect(result.dailyRemaining).toBe(before.dailyRemaining - 1);
    });

    it('accepts the alias target for domain', async () => {
      const result = await check({ target: 'alias-sender.com' });
      expect(result).toMatchObject({ domain: 'alias-sender.com', ips: ['185.60.0.20'] });
    });

    it('prefers domain when both domain and target are given', async () => {
      const result = await check({ domain: 'other-sender.com', target: 'alias-sender.com' });
      expect(result.domain).toBe('other-sender.com');
    });

    it('checks an internationalised domain under its IDNA ASCII form, keeping the Unicode form for display', async () => {
      const result = await check({ domain: ' ПРИМЕР.рф. ' });
      expect(result).toMatchObject({
        domain: 'xn--e1afmkfd.xn--p1ai',
        display: 'пример.рф',
        ips: ['185.90.0.1'],
        exists: true,
        dmarc: { present: true, policy: 'quarantine' },
      });
      // The domain lists were asked under the A-label form too: DBL lists it there.
      expect(listOf(result, 'dbl.spamhaus.org')?.status).toBe('listed');
      // The A-label spelling is the same request.
      const again = await check({ domain: 'XN--E1AFMKFD.xn--p1ai' });
      expect(again.from_cache).toBe(true);
      expect(again.token).toBe(result.token);
    });
  });

  describe('result cache', () => {
    it('answers a repeat from the cache with the same token and result, spending no quota', async () => {
      const first = await check({ domain: 'cache-sender.com' });
      const repeat = await check({ target: ' Cache-Sender.COM. ' });
      expect(first.from_cache).toBe(false);
      expect(repeat.from_cache).toBe(true);
      expect(repeat.token).toBe(first.token);
      expect(repeat.ips).toEqual(first.ips);
      expect(repeat.domain_score).toEqual(first.domain_score);
      expect(repeat.dailyRemaining).toBe(first.dailyRemaining);
      const status = (await (await service.get('/domain/v1/status')).json()) as QuotaStatus;
      expect(status.dailyRemaining).toBe(first.dailyRemaining);
    });
  });

  describe('IPv6 sender IPs', () => {
    it('takes ip6 terms and MX hosts AAAA as sender addresses and checks them on the lists that cover IPv6', async () => {
      const result = await check({ domain: 'six-sender.com' });
      expect(result).toMatchObject({
        ips: ['185.60.2.10', '2a01:4f8:20::7', '2a01:4f8:20::25'],
        ips_total: 3,
        ip6: [],
        mx: [{ exchange: 'mx.six-sender.com', addresses: ['185.60.2.10', '2a01:4f8:20::25'] }],
        addresses: { checked: 3, listed: 1, not_checked: [] },
      });
      const listed = result.addresses.results.find((address) => address.ip === '2a01:4f8:20::25');
      expect(listed).toMatchObject({
        listed: 1,
        answered: lists.ipv6,
        needs_key: keyed.ipv6,
        total: lists.ipv6 + keyed.ipv6,
        summary: expect.stringMatching(
          new RegExp(
            `^listed on 1 of ${lists.ipv6} lists; \\d+ do not cover IPv6; ${keyed.ipv6} need a key$`,
          ),
        ),
        listings: [{ zone: 'zen.spamhaus.org', severity: 'major' }],
      });
      // The lists waiting for a key did not answer: never read as clean (a watch keeps them silent).
      expect(listed?.unanswered.every((list) => list.status === 'disabled')).toBe(true);
      expect(listed?.unanswered).toHaveLength(keyed.ipv6);
      expect(result.domain_score.factors).toContainEqual(
        expect.objectContaining({ kind: 'sender_ip', source: '2a01:4f8:20::25' }),
      );
    });

    it('checks a domain that sends over IPv6 only, its /64 an IPv6 range', async () => {
      const result = await check({ domain: 'only-six.com' });
      expect(result).toMatchObject({
        ips: ['2a01:4f8:21::1'],
        ip6: ['2a01:4f8:21::/64'],
        ip6_total: 1,
        ranges: [],
        addresses: { checked: 1 },
      });
    });
  });

  describe('sender IPs', () => {
    it('joins include, mx, a with a CIDR suffix and ip4 terms: single addresses in ips, sorted without duplicates, larger ranges apart with their sizes', async () => {
      const result = await check({ domain: 'sender-one.com' });
      expect(result.ips).toEqual([
        // Numerically before 185.10.x, although not as text.
        '185.9.0.1',
        // ip4 /28: sixteen addresses, written out.
        ...range('185.10.20', 16, 16),
        // mx2, then the include's two (mx1 is the include's 185.40.1.9 again, listed once).
        '185.40.1.2',
        '185.40.1.7',
        '185.40.1.9',
        // a:out.sender-one.com/30 around 185.50.2.5.
        ...range('185.50.2', 4, 4),
        // The include's ip6 term, one address, after every IPv4 one.
        '2a00:1450:4010::1',
      ]);
      expect(result.ips.some((entry) => entry.includes('/'))).toBe(false);
      expect(result).toMatchObject({
        ips_total: 25,
        ips_truncated: false,
        // ip4 /24: a range, with its size.
        ranges: [{ network: '185.30.0.0/24', size: 256 }],
        ranges_total: 1,
        // ip6 /36: an IPv6 range.
        ip6: ['2a00:1450:4000::/36'],
        ip6_total: 1,
      });
      expect(result.mx).toEqual([
        { exchange: 'mx1.sender-one.com', priority: 10, addresses: ['185.40.1.9'] },
        { exchange: 'mx2.sender-one.com', priority: 20, addresses: ['185.40.1.2'] },
      ]);
      expect(result.spf).toMatchObject({
        status: 'found',
        record: expect.stringMatching(/^v=spf1 include:_spf\.sender-one\.com /),
        domains: ['sender-one.com', '_spf.sender-one.com'],
        lookups: 3,
      });
      expect(result.spf.error).toBeUndefined();
      // 16 addresses are checked on the IP lists, the IPv6 one among them; the rest are not, nor
      // are the ranges.
      expect(result.addresses.checked).toBe(16);
      expect(result.addresses.results.map((address) => address.ip)).toEqual([
        ...result.ips.slice(0, 15),
        '2a00:1450:4010::1',
      ]);
      expect(result.addresses.ranges).toEqual({
        checked: 0,
        how: expect.stringMatching(/^not checked/),
      });
      expect(result.addresses.not_checked).toEqual([
        '185.10.20.30',
        '185.10.20.31',
        '185.40.1.2',
        '185.40.1.7',
        '185.40.1.9',
        ...range('185.50.2', 4, 4),
      ]);
    });

    it('takes the MX hosts as senders when the domain has no SPF record', async () => {
      const result = await check({ domain: 'mx-only.com' });
      expect(result).toMatchObject({
        ips: ['185.80.0.1', '185.80.0.3'],
        exists: true,
        mx: [
          { exchange: 'mail.mx-only.com', priority: 10, addresses: ['185.80.0.1', '185.80.0.3'] },
        ],
        spf: { status: 'none', record: null },
      });
      expect(result.domain_score.factors).toEqual(
        expect.arrayContaining([expect.objectContaining({ kind: 'spf', points: -10 })]),
      );
    });

    it('takes the domain own address as its implicit MX when it has no MX record', async () => {
      const result = await check({ domain: 'a-only.com' });
      expect(result).toMatchObject({
        ips: ['185.80.0.2'],
        exists: true,
        mx: [{ exchange: 'a-only.com', priority: 0, addresses: ['185.80.0.2'] }],
      });
    });

    it('answers 400 for a domain that does not exist, in the words it uses for one with only internal addresses', async () => {
      await expectError(
        await service.post('/domain/v1', { domain: 'nowhere-sender.com' }),
        400,
        postError('invalid_target', 'nowhere-sender.com has no public IP address'),
      );
    });
  });

  describe('domain reputation', () => {
    it('reports a domain listed on Spamhaus DBL with its meaning, and a poor verdict', async () => {
      const result = await check({ domain: 'spammy-sender.com' });
      const dbl = listOf(result, 'dbl.spamhaus.org');
      expect(dbl).toMatchObject({
        status: 'listed',
        listings: [
          { code: '127.0.1.2', meaning: 'low-reputation (spam) domain', severity: 'major' },
        ],
      });
      expect(result.domain_score).toMatchObject({ listed: 1, score: 65, verdict: 'poor' });
      expect(result.domain_score.factors).toEqual([
        {
          kind: 'listing',
          source: 'Spamhaus DBL',
          detail: 'low-reputation (spam) domain',
          points: -35,
        },
      ]);
    });

    it('reports DBL answer 127.0.1.255 as an error, not a listing', async () => {
      const result = await check({ domain: 'odd-answer.com' });
      const dbl = listOf(result, 'dbl.spamhaus.org');
      expect(dbl?.status).toBe('error');
      expect(dbl?.error).toMatch(/127\.0\.1\.255/);
      expect(dbl?.listings).toBeUndefined();
      expect(result.domain_score).toMatchObject({
        listed: 0,
        answered: lists.domain - 1,
        total: lists.domain + keyed.domain,
        confidence: confidenceOf(lists.domain - 1, lists.domain),
        score: 100,
        factors: [],
      });
      expect(result.domain_score.verdict).not.toBe('poor');
    });

    it('reads SURBL and URIBL bitmask answers bit by bit', async () => {
      const result = await check({ domain: 'phishy-sender.com' });
      expect(listOf(result, 'multi.surbl.org')).toMatchObject({
        status: 'listed',
        listings: [{ code: '127.0.0.8', meaning: expect.stringMatching(/^PH: /), weight: 35 }],
      });
      const uribl = listOf(result, 'multi.uribl.com');
      expect(uribl?.status).toBe('listed');
      expect(uribl?.listings?.map((listing) => listing.meaning.split(':')[0])).toEqual([
        'black',
        'red',
      ]);
      // Each list costs its heaviest meaning once: SURBL PH 35, URIBL black 30.
      expect(result.domain_score.factors.map((factor) => [factor.source, factor.points])).toEqual([
        ['SURBL multi', -35],
        ['URIBL multi', -30],
      ]);
      expect(result.domain_score).toMatchObject({ listed: 2, score: 35, verdict: 'poor' });
    });

    it('shows listed sender addresses in addresses.results, each costing the domain score', async () => {
      const result = await check({ domain: 'listed-sender.com' });
      expect(result.addresses).toMatchObject({ checked: 3, listed: 2, not_checked: [] });
      const [major, minor, clean] = result.addresses.results;
      expect(major).toMatchObject({ ip: '185.60.1.20', listed: 2, verdict: 'poor' });
      expect(major?.listings.map((listing) => listing.zone).sort()).toEqual([
        'bl.spamcop.net',
        'zen.spamhaus.org',
      ]);
      expect(minor).toMatchObject({
        ip: '185.60.1.21',
        listed: 1,
        listings: [expect.objectContaining({ zone: 'psbl.surriel.com', severity: 'minor' })],
      });
      expect(clean).toMatchObject({ ip: '185.60.1.22', listed: 0, listings: [] });
      // −10 for the address with a major listing, −5 for the minor one; the domain itself is clean.
      expect(result.domain_score.listed).toBe(0);
      expect(
        result.domain_score.factors.map((factor) => [factor.kind, factor.source, factor.points]),
      ).toEqual([
        ['sender_ip', '185.60.1.20', -10],
        ['sender_ip', '185.60.1.21', -5],
      ]);
      expect(result.domain_score.score).toBe(85);
      // A sender address on a major list keeps the verdict from good.
      expect(result.domain_score.verdict).toBe('fair');
    });

    it('caps what listed sender addresses cost at 30 points together', async () => {
      const result = await check({ domain: 'many-listed.com' });
      expect(result.addresses).toMatchObject({ checked: 4, listed: 4 });
      const senderFactors = result.domain_score.factors.filter((f) => f.kind === 'sender_ip');
      expect(senderFactors).toHaveLength(4);
      expect(senderFactors.reduce((sum, factor) => sum + factor.points, 0)).toBe(-30);
      expect(result.domain_score).toMatchObject({ score: 70, verdict: 'fair' });
    });

    it('reads the DMARC record and its policy when present', async () => {
      const result = await check({ domain: 'listed-sender.com' });
      expect(result.dmarc).toEqual({
        status: 'found',
        present: true,
        record: 'v=DMARC1; p=none; rua=mailto:dmarc@reports.net',
        policy: 'none',
        applied: 'domain',
        domain: 'listed-sender.com',
        errors: [],
        warnings: [],
      });
    });

    it('reads the organisational domain DMARC record for a subdomain without one (RFC 7489 §6.6.3), and says which applied', async () => {
      // mail.clean-sender.com publishes no _dmarc record of its own; clean-sender.com does.
      const result = await check({ domain: 'mail.clean-sender.com' });
      expect(result.dmarc).toEqual({
        status: 'found',
        present: true,
        record: 'v=DMARC1; p=reject; rua=mailto:dmarc@reports.net',
        policy: 'reject',
        applied: 'organizational',
        domain: 'clean-sender.com',
        errors: [],
        warnings: [],
      });
      expect(result.domain_score.factors.some((factor) => factor.kind === 'dmarc')).toBe(false);
    });

    it('reports a missing DMARC record and costs it 5 points', async () => {
      const result = await check({ domain: 'no-dmarc.com' });
      expect(result.dmarc).toEqual({
        status: 'none',
        present: false,
        record: null,
        policy: null,
        applied: null,
        domain: null,
        errors: [],
        warnings: [],
      });
      expect(result.domain_score.factors).toEqual([
        { kind: 'dmarc', source: 'DMARC', detail: 'no DMARC record', points: -5 },
      ]);
      expect(result.domain_score.score).toBe(95);
    });

    it('reports an SPF chain past 10 DNS-querying terms as a permerror', async () => {
      const result = await check({ domain: 'long-chain.com' });
      expect(result.spf.error).toEqual({
        kind: 'permerror',
        reason: expect.stringMatching(/more than 10 DNS-querying terms/),
        at: 'l10.long-chain.com',
        term: 'include:l11.long-chain.com',
      });
      expect(result.spf.lookups).toBe(10);
      // The addresses found before the limit are kept, those after it are not.
      expect(result.ips).toEqual(range('185.70.0', 1, 10));
      expect(result.domain_score.factors).toEqual([
        expect.objectContaining({
          kind: 'spf',
          detail: expect.stringMatching(/^permerror: /),
          points: -10,
        }),
      ]);
      expect(result.domain_score.score).toBe(90);
    });

    it('reports an SPF include loop as a permerror', async () => {
      const result = await check({ domain: 'loop-sender.com' });
      expect(result.spf.error).toMatchObject({
        kind: 'permerror',
        reason: expect.stringMatching(/loop/),
        at: 'spf.loop-sender.com',
        term: 'include:loop-sender.com',
      });
      expect(result.ips).toEqual(['185.71.0.1', '185.71.0.2']);
    });
  });

  describe('errors', () => {
    it.each([
      ['no domain', {}],
      ['only a captcha token', { 'smart-token': 'x' }],
      ['a domain that is a number', { domain: 42 }],
      ['an alias target that is an array', { target: ['sender-one.com'] }],
    ])('answers 400 invalid_request for %s', async (_, body) => {
      await expectError(await service.post('/domain/v1', body), 400, postError('invalid_request'));
    });

    const nameOf254 = `${`${'a'.repeat(63)}.`.repeat(3)}${'b'.repeat(58)}.com`;

    it.each([
      ['a space inside a label', 'exa mple.com'],
      ['hyphens at both ends of a label', '-bad-.com'],
      ['a name of 254 characters', nameOf254],
      ['an empty string', ''],
      ['a URL', 'https://sender-one.com/'],
      ['an IPv4 address', '8.8.8.8'],
      ['an IPv6 address', '2a00:1450:4000::1'],
      ['localhost', 'localhost'],
      ['an .internal name', 'corp.internal'],
      ['a single label', 'mailhost'],
    ])('answers 400 invalid_target for %s', async (_, domain) => {
      await expectError(
        await service.post('/domain/v1', { domain }),
        400,
        postError('invalid_target'),
      );
    });

    it('uses a name of exactly 254 characters for the over-long case', () => {
      expect(nameOf254).toHaveLength(254);
    });

    it('answers 400 invalid_json for a body that is not JSON', async () => {
      await expectError(
        await service.post('/domain/v1', '{"domain": '),
        400,
        postError('invalid_json'),
      );
    });

    it('answers 415 unsupported_media_type for a body that is not sent as JSON', async () => {
      const response = await service.fetch(service.url('/domain/v1'), {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"domain":"sender-one.com"}',
      });
      await expectError(response, 415, postError('unsupported_media_type'));
    });

    it('answers 503 dns_unavailable when the domain own lookups fail, and charges the unit its domain-list queries cost', async () => {
      const before = (await (await service.get('/domain/v1/status')).json()) as QuotaStatus;
      await expectError(
        await service.post('/domain/v1', { domain: 'broken-sender.net' }),
        503,
        postError('dns_unavailable'),
      );
      const after = (await (await service.get('/domain/v1/status')).json()) as QuotaStatus;
      expect(after.dailyRemaining).toBe(before.dailyRemaining - 1);
    });

    it('refuses invalid requests without spending quota', async () => {
      const before = (await (await service.get('/domain/v1/status')).json()) as QuotaStatus;
      await service.post('/domain/v1', { domain: 'localhost' });
      await service.post('/domain/v1', {});
      const after = (await (await service.get('/domain/v1/status')).json()) as QuotaStatus;
      expect(after.dailyRemaining).toBe(before.dailyRemaining);
    });

    it('reports configured: false in the domain status and refuses its POST while DNS is dead', async () => {
      await expectNotConfiguredWhileDnsIsDead('domain', '/domain/v1', { domain: 'sender-one.com' });
    });
  });
});

describe('GET /domain/v1/{token}', () => {
  it('returns token, domain and ips: the stored result the POST answered', async () => {
    const posted = await check({ domain: 'sender-one.com' });
    const response = await service.get(`/domain/v1/${posted.token}`);
    expect(response.status).toBe(200);
    const stored = (await response.json()) as Record<string, unknown>;
    expect(stored).toMatchObject({ token: posted.token, domain: 'sender-one.com' });
    expect(stored.ips).toEqual(posted.ips);
    // Everything the POST said about the check, without the caller's quota and cache flags.
    const checkFields = Object.fromEntries(
      Object.entries(posted).filter(
        ([field]) => ![...quotaFields, 'siteKey', 'from_cache'].includes(field),
      ),
    );
    expect(stored).toEqual(checkFields);
  });

  it('answers 404 not_found for an unknown token', async () => {
    const response = await service.get('/domain/v1/AAAAAAAAAAAAAAAAAAAAAA');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: 'error',
      code: 'not_found',
      error: expect.any(String),
    });
  });

  it('does not answer a domain token from the IP tool path', async () => {
    const posted = await check({ domain: 'alias-sender.com' });
    expect((await service.get(`/ip/v1/${posted.token}`)).status).toBe(404);
  });
});

describe('GET /domain/v1/status', () => {
  it('answers the quota status object', async () => {
    await expectQuotaStatus(await service.get('/domain/v1/status'), 50);
  });
});

describe('another method on a domain route', () => {
  it.each([
    ['GET', '/domain/v1', 'POST'],
    ['PUT', '/domain/v1', 'POST'],
    ['POST', '/domain/v1/status', 'GET, HEAD'],
    ['DELETE', '/domain/v1/AAAAAAAAAAAAAAAAAAAAAA', 'GET, HEAD'],
  ])('answers 405 method_not_allowed for %s %s, with Allow: %s', async (method, path, allow) => {
    const response = await service.fetch(service.url(path), { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toEqual({
      status: 'error',
      code: 'method_not_allowed',
      error: expect.any(String),
    });
  });
});

describe('the OpenAPI document of the domain tool', () => {
  it('describes single addresses in ips, ranges apart with their sizes, and the alias rule', async () => {
    const document = (await (await service.get('/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const { schemas } = document.components;
    const result = schemas.DomainCheckResponse?.properties ?? {};
    for (const field of [
      'ips',
      'ips_total',
      'ips_truncated',
      'ranges',
      'ranges_total',
      'ip6',
      'ip6_total',
      'dmarc',
    ]) {
      expect(result).toHaveProperty(field);
    }
    // IPv6 sender addresses are in ips, in RFC 5952 form, after the IPv4 ones.
    expect(JSON.stringify(result.ips)).toContain('RFC 5952');
    expect(schemas.SenderRange?.properties).toEqual({
      network: expect.objectContaining({ type: 'string' }),
      size: expect.objectContaining({ type: 'integer' }),
    });
    expect(JSON.stringify(schemas.DomainStoredResult)).toContain('"ranges"');
    const request = schemas.DomainCheckRequest?.properties ?? {};
    expect(JSON.stringify(request)).toMatch(/first non-empty one wins/);
  });
});
