// The order matters: the shim first, then satori, which starts its WebAssembly as it loads.
import './satori-wasm.js';
import satori, { init } from 'satori/standalone';

/**
 * satori on Workers: its standalone build, loaded after the shim that hands it WebAssembly
 * compiled at build time (satori-wasm.ts). Import satori here, never directly.
 */
export { satori, init as initSatori };
