import { defaultCacheOptions } from '../src/dns/index.js';
import { cardCacheBytes } from '../src/node/index.js';
import { defaultMemoryStoreOptions } from '../src/store/index.js';
import { ratioOf, type Row } from './report.js';
import { round } from './stats.js';

/** The configured cache bounds of the Node server. */
export async function cacheBounds() {
  return {
    dnsCacheEntries: defaultCacheOptions.maxEntries,
    storeMaxValueChars: defaultMemoryStoreOptions.maxValueChars,
    cardCacheBytes,
  };
}

/**
 * What full caches may hold, in MiB: the store's chars (one-byte JSON strings), the cards, and
 * 1 KiB per DNS cache entry; a service's RSS may grow that much above a fresh process's.
 */
export async function cacheAllowanceMiB(): Promise<number> {
  const bounds = await cacheBounds();
  return round(
    (bounds.storeMaxValueChars + bounds.cardCacheBytes + bounds.dnsCacheEntries * 1024) / 2 ** 20,
  );
}

/** A row of an RSS against its limit, the RSS at start plus the cache allowance (section 6's). */
export function rssWithinBoundsRow(
  section: number,
  measurement: string,
  rssMiB: number,
  limitMiB: number,
): Row {
  return {
    section,
    measurement,
    value: rssMiB,
    unit: 'MiB',
    reference: { label: 'start + bounds', value: limitMiB },
    ratio: ratioOf(rssMiB, limitMiB),
    target: '≤ start + cache bounds',
    met: rssMiB <= limitMiB,
  };
}
