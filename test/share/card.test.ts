import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { createCardRenderer, warmUpSummary } from '../../src/share/card.js';
import { createFontLoader, readCardFonts } from '../../src/share/fonts.js';
import type { CardFonts } from '../../src/share/fonts.js';
import type { ShareSummary } from '../../src/share/summary.js';
import { textColumnWidth } from '../../src/share/card-layout.js';
import { fitTarget } from '../../src/share/card-target.js';
import {
  cyrillicName,
  everyListing,
  longestIpv6,
  longestName,
  summaryFor,
  tools,
} from './fixtures.js';

const renderCard = createCardRenderer(createFontLoader());

async function expectCard(png: Buffer): Promise<void> {
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
        coverage: {
          blocking: 0,
          informational: 0,
          answered: 2,
          not_answered: 0,
          on_hold: 0,
          disabled: 0,
          not_covered: 16,
          total: 2,
        },
      });
    const drawn = await renderCard(summary(longestIpv6));
    await expectCard(drawn);
    const groups = longestIpv6.split(':');
    for (let index = 0; index < groups.length; index++) {
      // The group's last digit changed: a group cut off or shortened away would draw the same card.
      const changed = groups.map((group, at) => (at === index ? `${group.slice(0, 3)}f` : group));
      const other = await renderCard(summary(changed.join(':')));
      expect(other.equals(drawn), `group ${index + 1}`).toBe(false);
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
    expect(unicode.equals(ascii)).toBe(true);
  });

  it('draws a Cyrillic name in Cyrillic, not in its ASCII form', async () => {
    const cyrillic = await renderCard(summaryFor('domain', { target: cyrillicName }));
    const ascii = await renderCard(summaryFor('domain', { target: 'xn--e1afmkfd.xn--p1ai' }));
    expect(cyrillic.equals(ascii)).toBe(false);
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
    const loadFonts = createFontLoader();
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
