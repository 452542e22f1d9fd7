import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { createCardRenderer } from '../../../src/node/cards/card-render.js';
import { readCardFonts } from '../../../src/node/cards/fonts.js';
import { cardLayout } from '../../../src/share/card-layout.js';
import { warmUpSummary } from '../../../src/share/card.js';
import type { Child, Element } from '../../../src/share/element.js';
import { createFontLoader } from '../../../src/share/fonts.js';
import type { CardFonts } from '../../../src/share/fonts.js';
import type { ShareSummary } from '../../../src/share/summary.js';
import { textColumnWidth } from '../../../src/share/card-layout.js';
import { fitTarget } from '../../../src/share/card-target.js';
import {
  coverageWith,
  cyrillicName,
  everyListing,
  ipv6Coverage,
  longestIpv6,
  longestName,
  summaryFor,
  tools,
} from '../../share/fixtures.js';

const renderCard = createCardRenderer(createFontLoader(() => readCardFonts()));

async function expectCard(png: Uint8Array): Promise<void> {
  const image = sharp(png);
  const { format, width, height } = await image.metadata();
  expect({ format, width, height }).toEqual({ format: 'png', width: 1200, height: 630 });
  // A blank or single-colour image has no variance; a drawn card has plenty.
  const { channels, isOpaque } = await image.stats();
  expect(Math.max(...channels.map((channel) => channel.stdev))).toBeGreaterThan(20);
  // Opaque, so resvg's premultiplied pixels were encoded as they are without a colour shift.
  expect(isOpaque).toBe(true);
}

const cases: Array<[string, Partial<ShareSummary>]> = [
  ['a short target', {}],
  ['a 253-character target', { target: longestName }],
  ['a Cyrillic IDN target', { target: cyrillicName }],
  [
    'the largest result (every list listed)',
    {
      target: longestName,
      verdict: 'poor',
      score: 0,
      listed: 48,
      checked: 48,
      listings: everyListing(48),
    },
  ],
];

/** A watch's card with its strip: `listedOn` the days (0 = 30 days ago) the target was listed. */
function watchCard(listedOn: number[], lang: 'en' | 'ru' = 'en'): Promise<Uint8Array> {
  const days = Array.from({ length: 30 }, (_, day) =>
    day < 3 ? 'none' : listedOn.includes(day) ? 'listed' : 'clean',
  ) as ShareSummary['days'];
  return renderCard({ ...summaryFor('ip', {}), tool: 'watch', days }, lang);
}

/** A cell of the strip: 14 by 22 pixels (src/share/card-strip.ts). */
const isDayCell = (element: Element) =>
  element.props.style?.width === 14 && element.props.style.height === 22;

describe('the watch card’s 30-day strip', () => {
  it.each(['en', 'ru'] as const)('draws a 1200x630 card with the strip in %s', async (lang) => {
    await expectCard(await watchCard([10, 28], lang));
  });

  it('draws a listed day apart from a clean one', async () => {
    const clean = await watchCard([]);
    const listedOnce = await watchCard([20]);
    const listedOnceElsewhere = await watchCard([21]);
    expect(Buffer.from(listedOnce).equals(Buffer.from(clean))).toBe(false);
    expect(Buffer.from(listedOnceElsewhere).equals(Buffer.from(listedOnce))).toBe(false);
    // The same days draw the same card.
    expect(Buffer.from(await watchCard([20])).equals(Buffer.from(listedOnce))).toBe(true);
  });

  it('lays one cell a day, coloured by the day, after a label that counts the listed days', () => {
    const days: NonNullable<ShareSummary['days']> = Array.from({ length: 30 }, (_, day) =>
      day === 0 ? 'none' : day === 29 ? 'listed' : 'clean',
    );
    const tree = cardLayout({ ...summaryFor('ip', {}), tool: 'watch', days }, 'Inter');
    const cells = findAll(tree, isDayCell);
    expect(cells).toHaveLength(30);
    const colours = cells.map((cell) => cell.props.style?.backgroundColor);
    expect(new Set([colours[0], colours[1], colours[29]]).size).toBe(3);
    expect(colours.filter((colour) => colour === colours[29])).toHaveLength(1);
    expect(textsOf(tree)).toContain('30 days · 1 day listed');
    const russian = cardLayout({ ...summaryFor('ip', {}), tool: 'watch', days }, 'Inter', 'ru');
    expect(textsOf(russian)).toContain('30 дней · 1 день в списках');
  });

  it('draws no strip on a check’s card', () => {
    const tree = cardLayout(summaryFor('ip', {}), 'Inter');
    expect(findAll(tree, isDayCell)).toHaveLength(0);
  });
});

describe('renderCard', () => {
  for (const tool of tools) {
    it.each(cases)(`draws a 1200x630 ${tool} card for %s`, async (_, overrides) => {
      await expectCard(await renderCard(summaryFor(tool, overrides)));
    });
  }

  it('fits the longest canonical IPv6 address whole, broken only after a colon', () => {
    const { fontSize, lines } = fitTarget(longestIpv6, textColumnWidth);
    expect(lines.join('')).toBe(longestIpv6);
    expect(lines.every((line, index) => index === lines.length - 1 || line.endsWith(':'))).toBe(
      true,
    );
    expect(fontSize).toBeGreaterThanOrEqual(44);
  });

  it('draws every group of the longest canonical IPv6 address: changing any one changes the card', async () => {
    const summary = (target: string) =>
      summaryFor('ip', {
        target,
        verdict: 'good',
        score: 100,
        listed: 0,
        checked: 2,
        listings: [],
        coverage: ipv6Coverage,
      });
    const drawn = await renderCard(summary(longestIpv6));
    await expectCard(drawn);
    const groups = longestIpv6.split(':');
    for (let index = 0; index < groups.length; index++) {
      // The group's last digit changed: a group cut off or shortened away would draw the same card.
      const changed = groups.map((group, at) => (at === index ? `${group.slice(0, 3)}f` : group));
      const other = await renderCard(summary(changed.join(':')));
      expect(Buffer.from(other).equals(drawn), `group ${index + 1}`).toBe(false);
    }
  });

  it('draws the card the service warms up with at start', async () => {
    await expectCard(await renderCard(warmUpSummary));
  });

  it('draws a card when no list answered', async () => {
    const summary = summaryFor('domain', {
      verdict: 'unknown',
      score: null,
      listed: 0,
      checked: 0,
      listings: [],
    });
    await expectCard(await renderCard(summary));
  });

  it('draws a name in a script the fonts lack in its ASCII form rather than as boxes', async () => {
    const unicode = await renderCard(summaryFor('domain', { target: '例子.中国' }));
    await expectCard(unicode);
    const ascii = await renderCard(summaryFor('domain', { target: 'xn--fsqu00a.xn--fiqs8s' }));
    expect(Buffer.from(unicode).equals(ascii)).toBe(true);
  });

  it('draws a Cyrillic name in Cyrillic, not in its ASCII form', async () => {
    const cyrillic = await renderCard(summaryFor('domain', { target: cyrillicName }));
    const ascii = await renderCard(summaryFor('domain', { target: 'xn--e1afmkfd.xn--p1ai' }));
    expect(Buffer.from(cyrillic).equals(ascii)).toBe(false);
  });
});

/** Every text drawn on a card, in the order it is laid out. */
function textsOf(child: Child | Child[] | undefined): string[] {
  if (child === null || child === undefined) return [];
  if (typeof child === 'string') return [child];
  if (Array.isArray(child)) return child.flatMap(textsOf);
  return textsOf((child as Element).props.children);
}

/** Every element of a card that `matches`. */
function findAll(
  child: Child | Child[] | undefined,
  matches: (element: Element) => boolean,
): Element[] {
  if (child === null || child === undefined || typeof child === 'string') return [];
  if (Array.isArray(child)) return child.flatMap((each) => findAll(each, matches));
  const element = child as Element;
  return [...(matches(element) ? [element] : []), ...findAll(element.props.children, matches)];
}

describe('the card in Russian', () => {
  for (const tool of tools) {
    it.each(cases)(`draws a 1200x630 ${tool} card for %s`, async (_, overrides) => {
      const russian = await renderCard(summaryFor(tool, overrides), 'ru');
      await expectCard(russian);
      expect(Buffer.from(russian).equals(await renderCard(summaryFor(tool, overrides), 'en'))).toBe(
        false,
      );
    });
  }

  it('writes every text of its own in Russian', () => {
    const summary = summaryFor('ip', {
      coverage: coverageWith({
        blocking: 2,
        answered: 16,
        not_answered: 2,
        on_hold: 1,
        disabled: 1,
        total: 20,
      }),
      listed: 2,
      checked: 16,
    });
    const texts = textsOf(cardLayout(summary, 'Inter', 'ru'));
    expect(texts).toEqual([
      'Проверка репутации',
      'Проверено 14 июн. 2025 г., 09:41 UTC',
      'IP-адрес',
      '203.0.113.7',
      'Плохая',
      'Внесён в 2 из 16 ответивших списков',
      'Ответили 16 из 20 списков · 2 не ответили · 1 приостановлен · 1 отключён',
      'rDNS',
      'mail.example.net',
      '· подтверждено прямой зоной',
      '61',
      'из 100',
      'Spamhaus ZEN',
      'SBL spam source',
      'высокий',
      'Barracuda BRBL',
      'Listed for sending spam',
      'низкий',
    ]);
  });

  it('draws the longest canonical IPv6 address whole, and counts the lists that do not cover IPv6', async () => {
    const summary = summaryFor('ip', {
      target: longestIpv6,
      verdict: 'good',
      score: 100,
      listed: 0,
      checked: 2,
      listings: [],
      coverage: ipv6Coverage,
    });
    const texts = textsOf(cardLayout(summary, 'Inter', 'ru'));
    // The same two lines as in English: the target's fit does not depend on the language.
    const { lines } = fitTarget(longestIpv6, textColumnWidth);
    const at = texts.indexOf(lines[0]!);
    expect(texts.slice(at, at + lines.length)).toEqual(lines);
    expect(texts).toContain('Ответили все 2 списка · 16 не поддерживают IPv6');
    await expectCard(await renderCard(summary, 'ru'));
  });

  it('writes the addresses a domain or pool row names, and the rest it counts, in Russian', () => {
    const domain = summaryFor('domain', {
      listings: [
        {
          list: 'Sender IP 192.0.3.20',
          detail: 'listed on Spamhaus ZEN',
          severity: 'major',
          address: { ip: '192.0.3.20', sender: true, lists: ['Spamhaus ZEN'] },
        },
      ],
    });
    const texts = textsOf(cardLayout(domain, 'Inter', 'ru'));
    expect(texts).toContain('IP отправителя 192.0.3.20');
    expect(texts).toContain('в списках: Spamhaus ZEN');
    expect(texts).toContain('IP отправителя: в списках 1 из 4');
    const pool = summaryFor('pool', { listings: everyListing(6) });
    expect(textsOf(cardLayout(pool, 'Inter', 'ru'))).toContain('+ ещё 3 адреса');
  });
});

describe('card fonts', () => {
  it('cover Latin, Latin Extended and Cyrillic names but not Chinese', async () => {
    const { covers } = await readCardFonts();
    expect(covers('mail-01.example.com')).toBe(true);
    expect(covers('łódź.pl')).toBe(true);
    expect(covers(cyrillicName)).toBe(true);
    expect(covers('例子.中国')).toBe(false);
  });

  it('are read once per loader and shared', async () => {
    const loadFonts = createFontLoader(() => readCardFonts());
    const [first, second] = await Promise.all([loadFonts(), loadFonts()]);
    expect(second).toBe(first);
    expect(await loadFonts()).toBe(first);
    expect(first.fonts).toHaveLength(9);
  });

  it('are read again after a failed read', async () => {
    const fonts = await readCardFonts();
    const read = vi
      .fn<() => Promise<CardFonts>>()
      .mockRejectedValueOnce(new Error('EMFILE'))
      .mockResolvedValueOnce(fonts);
    const loadFonts = createFontLoader(read);
    await expect(loadFonts()).rejects.toThrow('EMFILE');
    expect(await loadFonts()).toBe(fonts);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('fail to read from a directory without them', async () => {
    await expect(readCardFonts(new URL('file:///nonexistent/fonts/'))).rejects.toThrow(/ENOENT/);
  });
});
