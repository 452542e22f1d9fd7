import { Resvg, initWasm } from '@resvg/resvg-wasm';
import resvgWasm from '@resvg/resvg-wasm/index_bg.wasm';
import yogaWasm from 'satori/layout.wasm';
import type { Lang } from '../i18n/index.js';
import { cardSvg, colours, type ShareSummary } from '../share/index.js';
import { bundledCardFonts } from './fonts.js';
import { initSatori, satori } from './satori.js';

/**
 * The share card on Workers (sharp and resvg-js are native Node add-ons): the same SVG as on Node
 * (src/share/card.ts), drawn by `satori/standalone` over its layout engine, rasterised and encoded
 * as PNG by resvg's WebAssembly build. Every WebAssembly module is compiled by wrangler at build
 * time and instantiated once per isolate, on the first card.
 */

let ready: Promise<void> | undefined;

function start(): Promise<void> {
  ready ??= Promise.all([initSatori(yogaWasm), initWasm(resvgWasm)]).then(
    () => undefined,
    (error: unknown) => {
      ready = undefined;
      throw error;
    },
  );
  return ready;
}

/** satori draws every glyph as a path: resvg needs no fonts of its own. */
const rasterOptions = { font: { loadSystemFonts: false }, background: colours.paper };

/** A 1200x630 PNG of the summary, in `lang`. */
export async function renderCard(summary: ShareSummary, lang: Lang = 'en'): Promise<Uint8Array> {
  await start();
  const svg = await cardSvg(summary, bundledCardFonts(), satori, lang);
  const resvg = new Resvg(svg, rasterOptions);
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}
