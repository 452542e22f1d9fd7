import { writeFile } from 'node:fs/promises';
import type { Lang } from '../src/i18n/index.js';
import {
  createFontLoader,
  renderBadge,
  renderMissingBadge,
  type ShareListing,
  type ShareSummary,
} from '../src/share/index.js';
import { createCardRenderer, readCardFonts } from '../src/node/index.js';

/**
 * `npm run samples`: the sample cards and badges in docs/ (shown in the README), drawn from fixed
 * summaries by the service's own renderers, in English (`card-ip.png`) and Russian
 * (`card-ip-ru.png`), so a change of their look is one command away from the pictures.
 */

const checkedAt = '2025-06-14T09:41:00Z';

const allAnswered = (total: number) => ({
  blocking: 0,
  informational: 0,
  answered: total,
  not_answered: 0,
  on_hold: 0,
  disabled: 0,
  total,
});

const listedAddress = (ip: string, lists: string[], sender: boolean): ShareListing => ({
  list: sender ? `Sender IP ${ip}` : ip,
  detail: `listed on ${lists.join(', ')}`,
  severity: 'major',
  address: { ip, sender, lists },
});

const longName =
  'campaign-0001-tracking-and-bounce-handling-for-newsletters.of-an-email-service-provider-with-a-long-brand-name-1234567.com';

const samples: Record<string, ShareSummary> = {
  ip: {
    tool: 'ip',
    counts: 'lists',
    target: '203.0.113.7',
    verdict: 'poor',
    score: 61,
    listed: 2,
    checked: 16,
    coverage: {
      blocking: 2,
      informational: 1,
      answered: 16,
      not_answered: 1,
      on_hold: 1,
      disabled: 0,
      total: 18,
    },
    listings: [
      { list: 'Spamhaus ZEN', detail: 'SBL: direct spam source', severity: 'major' },
      { list: 'SpamCop', detail: 'Reported by spam trap hits', severity: 'minor' },
      { list: 'SpamRATS', detail: 'RATS-Dyna: generic rDNS', severity: 'info' },
    ],
    rdns: { ptr: 'mail.example.net', fcrdns: 'pass' },
    checkedAt,
  },
  domain: {
    tool: 'domain',
    counts: 'lists',
    target: 'example.com',
    verdict: 'fair',
    score: 80,
    listed: 0,
    checked: 5,
    coverage: allAnswered(5),
    listings: [listedAddress('192.0.2.20', ['Spamhaus ZEN'], true)],
    addresses: { total: 4, listed: 1 },
    checkedAt,
  },
  pool: {
    tool: 'pool',
    counts: 'addresses',
    target: 'mx.example.net',
    verdict: 'fair',
    score: null,
    listed: 1,
    checked: 16,
    coverage: allAnswered(18),
    listings: [listedAddress('203.0.113.9', ['Spamhaus ZEN', 'SpamCop'], false)],
    addresses: { total: 16, listed: 1 },
    checkedAt,
  },
  ipv6: {
    tool: 'ip',
    counts: 'lists',
    // The longest canonical IPv6 address (39 characters, the widest hex glyphs): drawn whole.
    target: '2d8b:d8b9:8d9b:b8d9:d9b8:9bd8:8db9:b9d8',
    verdict: 'good',
    score: 100,
    listed: 0,
    checked: 2,
    coverage: { ...allAnswered(2), not_covered: 16 },
    listings: [],
    rdns: { ptr: 'mail.example.net', fcrdns: 'pass' },
    checkedAt,
  },
  idn: {
    tool: 'domain',
    counts: 'lists',
    target: 'пример.рф',
    verdict: 'good',
    score: 100,
    listed: 0,
    checked: 12,
    listings: [],
    addresses: { total: 2, listed: 0 },
    checkedAt,
  },
  long: {
    tool: 'domain',
    counts: 'lists',
    target: longName,
    verdict: 'poor',
    score: 0,
    listed: 48,
    checked: 48,
    listings: Array.from({ length: 48 }, (_, index) => ({
      list: ['Spamhaus ZEN', 'Barracuda BRBL', 'SpamCop'][index % 3] ?? 'Blocklist',
      detail: 'Listed for sending unsolicited bulk email to spam traps, repeatedly',
      severity: (['major', 'minor', 'info'] as const)[index % 3] ?? 'major',
    })),
    addresses: { total: 4, listed: 4 },
    checkedAt,
  },
};

const render = createCardRenderer(createFontLoader(() => readCardFonts()));
const docs = new URL('../docs/', import.meta.url);
const written: string[] = [];

async function save(name: string, bytes: string | Uint8Array): Promise<void> {
  await writeFile(new URL(name, docs), bytes);
  written.push(name);
}

const drawn: Array<[name: string, langs: readonly Lang[]]> = [
  ['ip', ['en', 'ru']],
  ['domain', ['en', 'ru']],
  ['pool', ['en', 'ru']],
  ['ipv6', ['en', 'ru']],
  ['idn', ['en']],
  ['long', ['en']],
];
for (const [name, langs] of drawn) {
  for (const lang of langs) {
    const suffix = lang === 'en' ? '' : `-${lang}`;
    const summary = samples[name]!;
    await save(`card-${name}${suffix}.png`, await render(summary, lang));
    if (name !== 'long')
      await save(`badge-${name}${suffix}.svg`, renderBadge(summary, 'flat', lang));
  }
}
await save('badge-ip-for-the-badge.svg', renderBadge(samples.ip!, 'for-the-badge'));
await save('badge-missing.svg', renderMissingBadge('flat'));
await save('badge-missing-ru.svg', renderMissingBadge('flat', 'ru'));
console.log(`Wrote ${written.map((name) => `docs/${name}`).join(', ')}`);
