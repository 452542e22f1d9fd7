import { failingMail } from '../tools/mail/mail-results.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { type MessageKey, translator } from '../../src/i18n/index.js';
import { ru } from '../../src/i18n/ru.js';
import { renderListsPage } from '../../src/pages/lists-page.js';
import { renderSharePage } from '../../src/pages/share-page.js';
import { listingFactors, reverseDnsFactors } from '../../src/reputation/checks/score.js';
import { catalogueEntry } from '../../src/reputation/lists/lists-projection.js';
import { countsOf, type DnsblReport, type ListResult } from '../../src/reputation/lists/dnsbl.js';
import { type ListStanding, standingOf } from '../../src/reputation/lists/list-health.js';
import type { ListHealth } from '../../src/reputation/lists/list-health-schemas.js';
import { missingKeyReason } from '../../src/reputation/lists/list-keys.js';
import { readAnswer } from '../../src/reputation/lists/return-codes.js';
import { bundledZoneList, type DnsblZone } from '../../src/reputation/lists/zones.js';
import type { AddressSummary, ScoreFactor } from '../../src/reputation/results/index.js';
import { renderBadge } from '../../src/share/badge.js';
import { cardLayout } from '../../src/share/card-layout.js';
import { resultTexts, russianMeanings } from '../../src/share/result-texts.js';
import { tools } from '../../src/tools/registry.js';
import type { SharingTool } from '../../src/tools/common/tool.js';
import { type TestService, startTestService } from '../support/service.js';
import { testSite } from '../support/site.js';

/**
 * Russian is complete (docs/pages.md#russian): a result keeps its texts in English, and every
 * Russian page, card and badge writes them in Russian. Results listed on every list of the
 * catalogue by each of its documented codes, in every state a list can be in, with every kind of
 * score factor, are drawn in Russian; no English text of the zone list, nor any English message of
 * the catalogs that Russian says otherwise, may be left in what is drawn.
 */

const zones = bundledZoneList();
const lang = 'ru';
const t = translator(lang);
const texts = resultTexts(lang, t, russianMeanings(zones));
const checkedAt = '2026-11-25T10:30:00.000Z';

/** Every answer a list documents: its codes, bitmask bits, grades and error codes. */
function answersOf(zone: DnsblZone): string[] {
  const grades: Record<string, string[]> = {
    'mailspike-rep': Array.from({ length: 11 }, (_, index) => `127.0.0.${10 + index}`),
    senderscore: ['127.0.4.95', '127.0.4.40'],
    hostkarma: ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'],
    // Every category of DNSWL's, at every trust level.
    dnswl: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 99].flatMap((category) =>
      [0, 1, 2, 3].map((trust) => `127.0.${category}.${trust}`),
    ),
  };
  return [
    ...Object.keys(zone.codes ?? {}),
    ...Object.keys(zone.bitmask ?? {}).map((bit) => `127.0.0.${bit}`),
    ...(zone.grade ? (grades[zone.grade] ?? []) : []),
    ...Object.keys(zone.errors ?? {}),
    // A list without a code table lists by RFC 5782 §2.1's convention.
    ...(zone.codes || zone.bitmask || zone.grade ? [] : ['127.0.0.2']),
  ];
}

/** A list's result for `codes`, as the engine builds it (src/reputation/lists/dnsbl.ts). */
function answered(zone: DnsblZone, codes: string[]): ListResult {
  const base = { zone: zone.zone, name: zone.name, type: zone.type, severity: zone.severity };
  const reading = readAnswer(zone, codes);
  if (reading.status === 'error') return { ...base, status: 'error', codes, error: reading.error };
  if (reading.status === 'allowlisted') {
    const { entries, trust } = reading;
    return { ...base, status: 'allowlisted', codes, trust, allowlist_entries: entries };
  }
  const graded = reading.grade ? { grade: reading.grade } : {};
  if (reading.status === 'clean') return { ...base, ...graded, status: 'clean', codes };
  return { ...base, ...graded, status: 'listed', codes, listings: reading.listings };
}

const [zen, barracuda, spamcop, abusix, mailspike] = zones;
const base = (zone: DnsblZone) => ({
  zone: zone.zone,
  name: zone.name,
  type: zone.type,
  severity: zone.severity,
});

/** A list in each state that gives no listing, with the engine's own words for it. */
const states: ListResult[] = [
  { ...base(zen!), status: 'timeout', error: 'no answer in time' },
  {
    ...base(barracuda!),
    status: 'timeout',
    on_hold: true,
    error: 'stopped answering: 3 look-ups in a row timed out',
  },
  {
    ...base(abusix!),
    status: 'disabled',
    key: 'ABUSIX_KEY',
    error:
      "answers only with its operator's key: set ABUSIX_KEY to ask it (never asked without it)",
  },
  {
    ...base(spamcop!),
    status: 'disabled',
    error: 'self-test: bl.spamcop.net: 127.0.0.2 answered NXDOMAIN',
  },
  { ...base(mailspike!), status: 'disabled', not_covered: true, error: 'does not cover IPv6' },
  { ...base(zen!), status: 'error', error: "the list's server answered SERVFAIL" },
  {
    ...base(zen!),
    status: 'error',
    codes: ['127.255.255.255'],
    error: '127.255.255.255: the list refused the query',
  },
  answered(zen!, ['10.0.0.1']),
  answered(zen!, ['127.0.0.1']),
];

const everyList: ListResult[] = [
  ...zones.flatMap((zone) => answersOf(zone).map((code) => answered(zone, [code]))),
  ...states,
];

/** Every kind of factor: listings, grades and allowlists as the score reads them, and the rest. */
const factors: ScoreFactor[] = [
  ...listingFactors({ lists: everyList } as DnsblReport),
  ...reverseDnsFactors({ ptr: '', names: [], fcrdns: 'none', confirmed: [] }),
  ...reverseDnsFactors({
    ptr: 'dynamic.isp.example',
    names: ['dynamic.isp.example'],
    fcrdns: 'fail',
    confirmed: [],
  }),
  {
    kind: 'sender_ip',
    source: '192.0.3.20',
    detail: 'sender IP listed on Spamhaus ZEN',
    points: -15,
  },
  { kind: 'spf', source: 'SPF', detail: 'no SPF record', points: -10 },
  { kind: 'spf', source: 'SPF', detail: 'several SPF records (permerror)', points: -10 },
  { kind: 'spf', source: 'SPF', detail: 'permerror: too many DNS lookups', points: -10 },
  { kind: 'dmarc', source: 'DMARC', detail: 'no DMARC record', points: -5 },
];

const counts = { ...countsOf(everyList), summary: 'listed on many lists' };
const score = { score: 0, verdict: 'poor', confidence: 'medium', factors, ...counts } as const;

const address: AddressSummary = {
  ip: '192.0.3.20',
  score: 0,
  verdict: 'poor',
  confidence: 'medium',
  ...counts,
  listings: everyList
    .filter((list) => list.status === 'listed')
    .map((list) => ({
      zone: list.zone,
      name: list.name,
      severity: list.severity,
      detail: (list.listings ?? []).map((listing) => listing.meaning).join('; '),
      codes: list.codes ?? [],
    })),
  allowlists: [{ zone: 'list.dnswl.org', name: 'DNSWL.org', trust: 'high' }],
  unanswered: [{ zone: 'zen.spamhaus.org', status: 'timeout' }],
};

const results: Record<string, Record<string, unknown>> = {
  // A mail check lists no list meanings: its Russian is the catalogs' (test/tools/mail/).
  mail: failingMail as unknown as Record<string, unknown>,
  ip: {
    kind: 'ipv4',
    target: '192.0.3.20',
    ip: '192.0.3.20',
    ptr: 'dynamic.isp.example',
    ip_score: {
      ...score,
      lists: everyList,
      rdns: { ptr: '', names: [], fcrdns: 'error', confirmed: [], error: 'no PTR answer in time' },
      checked_at: checkedAt,
    },
  },
  domain: {
    domain: 'demo-sender.com',
    ips: ['192.0.3.20'],
    ips_total: 1,
    ranges: [],
    ranges_total: 0,
    ip6: [],
    ip6_total: 0,
    mx: [],
    spf: {
      domain: 'demo-sender.com',
      record: null,
      status: 'none',
      notEnumerable: [],
      skipped: [],
      nonPass: [],
      error: {
        kind: 'permerror',
        reason: 'include.demo-sender.com has 2 SPF records; there must be one',
        at: 'demo-sender.com',
        term: 'include:include.demo-sender.com',
      },
    },
    dmarc: {
      present: false,
      record: null,
      policy: null,
      applied: null,
      domain: null,
      status: 'none',
    },
    domain_score: { ...score, lists: everyList },
    addresses: { checked: 1, listed: 1, not_checked: [], results: [address] },
    notes: [
      'Looked up the 10 most preferred of 14 MX hosts (RFC 7208 §4.6.4 allows an mx term 10).',
      'Lists the first 64 of 120 sender addresses.',
      "Stopped following the domain's records after 60 DNS queries; what was left is reported as not answered.",
    ],
    checked_at: checkedAt,
  },
  pool: {
    kind: 'check',
    pool: 'pool.demo-sender.com',
    results: ['192.0.3.20'],
    details: [address],
    checked: 1,
    checked_at: checkedAt,
  },
  watch: {
    id: 'w_0123456789abcdef',
    target: '192.0.3.20',
    kind: 'ip',
    interval_s: 3600,
    paused: false,
    created_at: checkedAt,
    expires_at: checkedAt,
    checked_at: checkedAt,
    next_check_at: checkedAt,
    status: {
      verdict: 'poor',
      score: 0,
      listed: counts.listed,
      answered: counts.answered,
      total: counts.total,
      lists: everyList,
      addresses: [address],
    },
    history: [
      {
        at: checkedAt,
        added: [
          {
            zone: 'zen.spamhaus.org',
            name: 'Spamhaus ZEN',
            code: '127.0.0.2',
            meaning: 'SBL: direct spam source, spam operation or spam service',
          },
        ],
        removed: [],
        verdict: 'poor',
        score: 0,
      },
    ],
    webhook: null,
  },
};

/** The English the Russian outputs must not hold: the zone list's and the catalogs'. */
function englishTexts(): string[] {
  const found = new Set<string>();
  for (const zone of zones) {
    for (const text of [zone.lists?.en, zone.policy?.en]) if (text) found.add(text);
    for (const table of [zone.codes, zone.bitmask, zone.errors]) {
      for (const { meaning } of Object.values(table ?? {})) found.add(meaning);
    }
  }
  for (const key of Object.keys(en) as MessageKey[]) {
    const english = en[key];
    const russian = ru[key];
    const forms = typeof english === 'string' ? [english] : Object.values(english);
    if (
      JSON.stringify(forms) ===
      JSON.stringify(typeof russian === 'string' ? [russian] : Object.values(russian))
    )
      continue;
    // The parts around the placeholders: `{n} more addresses` holds ` more addresses`.
    for (const form of forms) for (const part of form.split(/\{\w+\}/)) found.add(part.trim());
  }
  // Shorter texts are names and codes, the same in both languages (`SBL`, `Spamhaus ZEN`).
  return [...found].filter((text) => text.length >= 12);
}

const english = englishTexts();

/**
 * What a reader sees of an HTML page or SVG: its text and the attributes people read (titles,
 * descriptions, alt texts), the entities read back; not its addresses, classes or identifiers.
 */
function readable(markup: string): string {
  return markup
    .replace(/\s(?:class|href|src|id|rel|type|lang|datetime|data-[\w-]+)="[^"]*"/g, '')
    .replace(/https?:\/\/[^\s"'<>]*/g, '')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every text a card's layout feeds satori. */
function cardTexts(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(cardTexts);
  if (node && typeof node === 'object') return Object.values(node).flatMap(cardTexts);
  return [];
}

/**
 * English among a card's texts: a text the card cut to its width (`XBL: exploited host (bot…`)
 * counts when it begins an English text.
 */
function englishOnCard(texts: readonly string[]): string[] {
  return english.filter((text) =>
    texts.some(
      (shown) =>
        shown.includes(text) ||
        (shown.endsWith('…') && shown.length > 12 && text.startsWith(shown.slice(0, -1))),
    ),
  );
}

function englishIn(output: string): string[] {
  return english.filter((text) => output.includes(text));
}

const site = await testSite('/tools/ip-reputation');

/** The tools whose results are shared: each has a share page, a card and a badge. */
const sharing = tools.filter(
  (tool): tool is (typeof tools)[number] & SharingTool => 'summarise' in tool,
);

describe('a result drawn in Russian', () => {
  it('covers every list of the catalogue, every documented code and every kind of factor', () => {
    const listed = new Set(everyList.map((list) => list.zone));
    expect(zones.filter((zone) => !listed.has(zone.zone))).toEqual([]);
    expect(new Set(factors.map((factor) => factor.kind))).toEqual(
      new Set(['listing', 'grade', 'allowlist', 'reverse_dns', 'sender_ip', 'spf', 'dmarc']),
    );
    expect(english).toContain('SBL: direct spam source, spam operation or spam service');
  });

  it.each(sharing.map((tool) => [tool.name, tool] as const))(
    'on the %s share page holds no English text of the catalogue or the catalogs',
    async (name, tool) => {
      const stored = results[name]!;
      const summary = tool.summarise(stored);
      const page = await renderSharePage({
        site,
        lang,
        t,
        view: tool.page(stored, { lang, t, summary, texts }),
        summary,
        links: {
          page: 'https://rep.example.org/x',
          card: 'https://rep.example.org/x/card',
          badge: 'https://rep.example.org/x/badge.svg',
          images: { card: '/x/card', badge: '/x/badge.svg' },
          result: '/x.json',
          checkAnother: '/?lang=ru',
        },
        languageHref: (other) => `/x?lang=${other}`,
      });
      if (name !== 'pool' && name !== 'mail') expect(page).toContain('SBL: прямой источник спама');
      expect(englishIn(readable(page))).toEqual([]);
    },
  );

  it.each(sharing.map((tool) => [tool.name, tool] as const))(
    'on the %s card and badge holds no English text',
    (name, tool) => {
      const summary = texts.summary(tool.summarise(results[name]!));
      expect(englishOnCard(cardTexts(cardLayout(summary, 'Inter', lang)))).toEqual([]);
      expect(englishIn(readable(renderBadge(summary, 'flat', lang)))).toEqual([]);
    },
  );

  it('writes the meaning of a listing on the card from the zone list', () => {
    const ip = results.ip as { ip_score: Record<string, unknown> };
    const sbl = { ...ip, ip_score: { ...ip.ip_score, lists: [answered(zen!, ['127.0.0.2'])] } };
    const summary = texts.summary(tool('ip').summarise(sbl));
    const card = cardTexts(cardLayout(summary, 'Inter', lang)).join('\n');
    expect(card).toContain('SBL: прямой источник спама');
  });
});

function tool(name: string) {
  return sharing.find((each) => each.name === name)!;
}

/** A list's health in `state`, with the monitor's English reason. */
function health(
  zone: DnsblZone,
  state: ListHealth['state'],
  more: Partial<ListHealth>,
): ListHealth {
  return {
    zone: zone.zone,
    name: zone.name,
    type: zone.type,
    ...catalogueEntry(zone),
    state,
    reason: 'its test entry answered as documented and a random name NXDOMAIN',
    test_entry: '127.0.0.2',
    last_self_test: checkedAt,
    last_self_test_result: 'passed',
    answers_last_hour: 0,
    timeouts_last_hour: 0,
    latency_ms: { p50: null, p95: null },
    ipv6: null,
    ...more,
  };
}

describe('the lists page in Russian', () => {
  const now = Date.parse(checkedAt);
  const window = { now, ttlMs: 3_600_000, resolverProvenAt: now };
  const fresh = { positive: false, timeoutsInARow: 0 };
  /** Each state a list can be in, with the zone monitor's own reason for it. */
  const standings: [Partial<ListHealth>, ListStanding][] = [
    [{}, standingOf({ ...fresh, provenAt: now, positive: true }, window)],
    [{ test_entry: null }, standingOf({ ...fresh, provenAt: now }, window)],
    [
      {},
      standingOf(
        {
          ...fresh,
          hold: {
            since: now,
            reason: '3 look-ups in a row got no answer',
            probeEveryMs: 1,
            probeAt: now,
          },
        },
        window,
      ),
    ],
    [
      { last_self_test_result: 'failed' },
      standingOf({ ...fresh, failure: 'self-test: 127.0.0.2 answered NXDOMAIN' }, window),
    ],
    [{ last_self_test: null, last_self_test_result: null }, standingOf(fresh, window)],
  ];

  it("writes every list's description, terms and state, and why it is in it, in Russian", async () => {
    const lists = zones.map((zone, index) => {
      if (zone.key) {
        const reason = missingKeyReason(zone.key.variable);
        return health(zone, 'disabled', { reason, last_self_test_result: null });
      }
      const [more, { state, reason }] = standings[index % standings.length]!;
      return health(zone, state, { ...more, reason });
    });
    expect(new Set(lists.map((list) => list.state))).toEqual(
      new Set(['active', 'on_hold', 'disabled']),
    );
    const page = await renderListsPage({
      site,
      lang,
      t,
      readiness: { configured: false, reason: 'The DNS resolver answers NXDOMAIN for every name' },
      lists,
      zones,
      languageHref: (other) => `/lists?lang=${other}`,
    });
    const shown = readable(page);
    expect(shown).toContain('Источники и организаторы спама');
    expect(englishIn(shown)).toEqual([]);
    for (const { reason } of lists) expect(shown).not.toContain(reason);
    expect(shown).not.toContain('NXDOMAIN for every name');
  });
});

describe('the service in Russian', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({
      listings: { '192.0.3.20': { 'zen.spamhaus.org': ['127.0.0.2', '127.0.0.4'] } },
    });
  });
  afterAll(() => service.close());

  it("draws a real check's share page and the lists page with the zone list's Russian", async () => {
    const response = await service.post('/ip/v1', { target: '192.0.3.20' });
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    const accept = { Accept: 'text/html' };
    const page = readable(
      await (await service.get(`/ip/v1/share/${token}?lang=ru`, accept)).text(),
    );
    expect(page).toContain('XBL: взломанный узел (ботнет, прокси, троян)');
    expect(englishIn(page)).toEqual([]);
    const lists = readable(await (await service.get('/lists?lang=ru', accept)).text());
    expect(englishIn(lists)).toEqual([]);
  });
});
