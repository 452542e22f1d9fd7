import { describe, expect, it } from 'vitest';
import { cardSvg, warmUpSummary } from '../../src/share/card.js';
import type { ShareSummary } from '../../src/share/summary.js';
import { renderCard } from '../../src/workers/card-render.js';
import { bundledCardFonts } from '../../src/workers/fonts.js';
import { satori } from '../../src/workers/satori.js';
import { cyrillicName, everyListing, longestName, summaryFor } from '../share/fixtures.js';
import { pngHeader } from '../support/png.js';
import { nodeCardSvg } from './support/service.js';

/**
 * The card on Workers: satori's standalone build and resvg's WebAssembly, every module compiled at
 * build time (src/workers/satori-wasm.ts), drawing the same 1200x630 card as on Node.
 */

describe('renderCard inside workerd', () => {
  it('draws a 1200x630 PNG', async () => {
    const png = await renderCard(warmUpSummary);
    expect(pngHeader(png)).toEqual({ width: 1200, height: 630, bitDepth: 8, colourType: 6 });
    // A drawn card, not a blank page: tens of kilobytes of compressed pixels.
    expect(png.byteLength).toBeGreaterThan(20_000);
  });

  it('draws text: a longer name gives another picture, Cyrillic included', async () => {
    const short = await renderCard(summaryFor('domain', {}));
    const long = await renderCard(summaryFor('domain', { target: longestName }));
    const cyrillic = await renderCard(summaryFor('domain', { target: cyrillicName }));
    for (const png of [short, long, cyrillic])
      expect(pngHeader(png)).toMatchObject({ width: 1200 });
    expect(Buffer.from(long).equals(Buffer.from(short))).toBe(false);
    expect(Buffer.from(cyrillic).equals(Buffer.from(short))).toBe(false);
  });

  it.each([
    ['a short IP card', warmUpSummary],
    ['a Cyrillic domain', summaryFor('domain', { target: cyrillicName })],
    ['a name the fonts lack, drawn in ASCII', summaryFor('domain', { target: '例子.中国' })],
    [
      'a watch with its 30-day strip',
      {
        ...summaryFor('ip', {}),
        tool: 'watch',
        days: Array.from({ length: 30 }, (_, day) =>
          day < 5 ? 'none' : day % 4 ? 'clean' : 'listed',
        ),
      } as ShareSummary,
    ],
    [
      'the largest pool result',
      summaryFor('pool', {
        target: longestName,
        listed: 48,
        checked: 48,
        listings: everyListing(48),
      }),
    ],
  ])(
    'lays out %s exactly as the Node server does: the same SVG, byte for byte',
    async (_, summary) => {
      await renderCard(summary);
      const edge = await cardSvg(summary, bundledCardFonts(), satori);
      expect(edge).toBe(await nodeCardSvg(summary));
    },
  );
});
