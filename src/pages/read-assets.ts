import { readFile } from 'node:fs/promises';
import { type PageAssets, preparePageAssets } from './assets.js';

/** The Node side: reads the pages' script and stylesheet from assets/pages/. */

const directory = new URL('../../assets/pages/', import.meta.url);

export async function readPageAssets(): Promise<PageAssets> {
  const [script, style] = await Promise.all([
    readFile(new URL('pages.js', directory), 'utf8'),
    readFile(new URL('pages.css', directory), 'utf8'),
  ]);
  return preparePageAssets({ script, style });
}
