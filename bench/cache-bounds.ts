import { defaultCacheOptions } from '../src/dns/index.js';
import { cardCacheBytes } from '../src/node/index.js';
import { defaultMemoryStoreOptions } from '../src/store/index.js';
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
