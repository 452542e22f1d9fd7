import { domainToASCII } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import sharp from 'sharp';
import { cardLayout } from './card-layout.js';
import { cardHeight, cardWidth, colours } from './card-theme.js';
import type { Lang } from '../i18n/index.js';
import type { CardFonts } from './fonts.js';
import type { ShareSummary } from './summary.js';

/**
 * A name in a script the shipped fonts lack (Chinese, Arabic, ...) would render as boxes; its
 * ASCII (punycode) form is at least exact and readable.
 */
function drawableTarget(target: string, fonts: CardFonts): string {
  if (fonts.covers(target)) return target;
  return domainToASCII(target) || target;
}

/**
 * satori draws every glyph as a path, so resvg needs no fonts: scanning the system's costs it
 * 4-7 ms a card. The paper background makes every pixel opaque, so the premultiplied RGBA resvg
 * hands out is plain RGBA and goes to sharp as it is.
 */
const rasterOptions = { font: { loadSystemFonts: false }, background: colours.paper };

/**
 * The share card in `lang` (English or Russian; the fonts hold Cyrillic): a 1200x630 PNG, drawn
 * as SVG by satori, rasterised by resvg (3-4× faster than
 * sharp's librsvg) and encoded by sharp: zlib level 3 without adaptive filtering takes about 8 ms
 * for 47 KB, against 11 ms for 41 KB at level 6, 40 ms with adaptive filtering and 20 ms for
 * resvg's own encoder. resvg renders synchronously on the thread drawing the card (`renderAsync`
 * measured 5-7 ms slower a card on this 2-core machine); the Node server draws cards in worker
 * threads (src/node/card-pool.ts), so that thread is never the event loop.
 */
export async function renderCard(
  summary: ShareSummary,
  fonts: CardFonts,
  lang: Lang = 'en',
): Promise<Buffer> {
  const element = cardLayout(
    { ...summary, target: drawableTarget(summary.target, fonts) },
    fonts.fontFamily,
    lang,
  );
  const svg = await satori(element, { width: cardWidth, height: cardHeight, fonts: fonts.fonts });
  const { pixels, width, height } = new Resvg(svg, rasterOptions).render();
  return sharp(pixels, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 3, adaptiveFiltering: false })
    .toBuffer();
}

/**
 * A typical card, drawn once when the service starts: the first card otherwise pays about half a
 * second of loading (fonts parsed, satori's layout engine and resvg started).
 */
export const warmUpSummary: ShareSummary = {
  tool: 'ip',
  target: '192.0.2.1',
  verdict: 'fair',
  score: 70,
  listed: 1,
  checked: 18,
  listings: [{ list: 'Spamhaus ZEN', detail: 'SBL: spam source', severity: 'major' }],
  rdns: { ptr: 'mail.example.com', fcrdns: 'pass' },
  checkedAt: '2026-01-01T00:00:00.000Z',
};

/** `renderCard` with its fonts bound, e.g. as the `render` of a card cache. */
export function createCardRenderer(
  loadFonts: () => Promise<CardFonts>,
): (summary: ShareSummary, lang?: Lang) => Promise<Buffer> {
  return async (summary, lang) => renderCard(summary, await loadFonts(), lang);
}
