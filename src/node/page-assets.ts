import { readFile } from 'node:fs/promises';
import type { PageAssetSources } from '../pages/index.js';

/** The Node side: reads the pages' script and stylesheet from assets/pages/ at start. */

const directory = new URL('../../assets/pages/', import.meta.url);

export async function readPageAssetSources(): Promise<PageAssetSources> {
  const [script, style] = await Promise.all([
    readFile(new URL('pages.js', directory), 'utf8'),
    readFile(new URL('pages.css', directory), 'utf8'),
  ]);
  return { script, style };
}
