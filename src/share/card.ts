import tr46 from 'tr46';
import type satori from 'satori';
import type { Lang } from '../i18n/index.js';
import { cardLayout } from './card-layout.js';
import { cardHeight, cardWidth } from './card-theme.js';
import type { CardFonts } from './fonts.js';
import type { ShareSummary } from './summary.js';

/**
 * The share card as SVG, the part every runtime shares: satori lays the card out and draws every
 * glyph as a path. Each runtime rasterises it to PNG its own way (src/node/cards/card-render.ts with
 * resvg-js and sharp, src/workers/card-render.ts with resvg-wasm), and each brings its own build
 * of satori (`satori` on Node; `satori/standalone` with its WebAssembly compiled at build time on
 * Workers, which compiles none at run time).
 */

/** satori's drawing function, from whichever of its entry points the runtime loads. */
export type DrawSvg = typeof satori;

/** The card's size in pixels: 1200x630, the Open Graph image size link previews expect. */
export const cardSize = { width: cardWidth, height: cardHeight };

/**
 * A name in a script the shipped fonts lack (Chinese, Arabic, ...) would render as boxes; its
 * ASCII (punycode) form is at least exact and readable. The options are the WHATWG URL
 * standard's "domain to ASCII", as `new URL()` and Node's `domainToASCII` apply it.
 */
function drawableTarget(target: string, fonts: CardFonts): string {
  if (fonts.covers(target)) return target;
  return (
    tr46.toASCII(target, {
      checkBidi: true,
      checkJoiners: true,
      checkHyphens: false,
      useSTD3ASCIIRules: false,
      transitionalProcessing: false,
      verifyDNSLength: false,
    }) || target
  );
}

/** The card of `summary` in `lang` (English or Russian; the fonts hold Cyrillic), as an SVG of 1200x630. */
export async function cardSvg(
  summary: ShareSummary,
  fonts: CardFonts,
  draw: DrawSvg,
  lang: Lang = 'en',
): Promise<string> {
  const element = cardLayout(
    { ...summary, target: drawableTarget(summary.target, fonts) },
    fonts.fontFamily,
    lang,
  );
  return draw(element, { ...cardSize, fonts: fonts.fonts });
}

/**
 * A typical card, drawn once when the service starts: the first card otherwise pays about half a
 * second of loading (fonts parsed, satori's layout engine and the rasteriser started).
 */
export const warmUpSummary: ShareSummary = {
  tool: 'ip',
  counts: 'lists',
  target: '192.0.2.1',
  verdict: 'fair',
  score: 70,
  listed: 1,
  checked: 18,
  listings: [{ list: 'Spamhaus ZEN', detail: 'SBL: spam source', severity: 'major' }],
  rdns: { ptr: 'mail.example.com', fcrdns: 'pass' },
  checkedAt: '2026-01-01T00:00:00.000Z',
};
