import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import sharp from 'sharp';
import type { Lang } from '../../i18n/index.js';
import { type CardFonts, cardSvg, colours, type ShareSummary } from '../../share/index.js';

/**
 * satori draws every glyph as a path, so resvg needs no fonts: scanning the system's costs it
 * 4-7 ms a card. The paper background makes every pixel opaque, so the premultiplied RGBA resvg
 * hands out is plain RGBA and goes to sharp as it is.
 */
const rasterOptions = { font: { loadSystemFonts: false }, background: colours.paper };

/**
 * The share card on Node, in `lang`: a 1200x630 PNG, drawn as SVG by satori (src/share/card.ts), rasterised
 * by resvg (3-4× faster than sharp's librsvg) and encoded by sharp: zlib level 3 without adaptive
 * filtering takes about 8 ms for 47 KB, against 11 ms for 41 KB at level 6, 40 ms with adaptive
 * filtering and 20 ms for resvg's own encoder. resvg renders synchronously on the thread drawing
 * the card (`renderAsync` measured 5-7 ms slower a card on this 2-core machine); the Node server
 * draws cards in worker threads (card-pool.ts), so that thread is never the event loop.
 */
export async function renderCard(
  summary: ShareSummary,
  fonts: CardFonts,
  lang: Lang = 'en',
): Promise<Uint8Array> {
  const svg = await cardSvg(summary, fonts, satori, lang);
  const { pixels, width, height } = new Resvg(svg, rasterOptions).render();
  return sharp(pixels, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 3, adaptiveFiltering: false })
    .toBuffer();
}

/** `renderCard` with its fonts bound, e.g. as the `render` of a card cache. */
export function createCardRenderer(
  loadFonts: () => Promise<CardFonts>,
): (summary: ShareSummary, lang?: Lang) => Promise<Uint8Array> {
  return async (summary, lang) => renderCard(summary, await loadFonts(), lang);
}
