import { readFile } from 'node:fs/promises';
import { defaultCacheOptions } from '../src/dns/caching.js';
import { defaultMemoryStoreOptions } from '../src/store/memory.js';

/** The configured cache bounds, read from the source the service runs. */
export async function cacheBounds() {
  const services = await readFile(new URL('../src/services.ts', import.meta.url), 'utf8');
  const expression = /const cardCacheBytes = ([\d_ *]+);/.exec(services)?.[1];
  const cardCacheBytes = expression
    ? expression
        .split('*')
        .reduce((product, factor) => product * Number(factor.trim().replaceAll('_', '')), 1)
    : Number.NaN;
  return {
    dnsCacheEntries: defaultCacheOptions.maxEntries,
    storeMaxValueChars: defaultMemoryStoreOptions.maxValueChars,
    cardCacheBytes,
  };
}
