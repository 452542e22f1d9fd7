/** Share cards drawn on Node: the worker threads (resvg-js and sharp) and the fonts read from disk. */

export { type CardPool, createCardPool } from './card-pool.js';
export { createCardRenderer } from './card-render.js';
export { readCardFonts } from './fonts.js';
