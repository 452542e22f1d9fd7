import { defaultCacheOptions } from '../src/dns/caching.js';
import { cardCacheBytes } from '../src/node/platform.js';
import { defaultMemoryStoreOptions } from '../src/store/memory.js';

/** The configured cache bounds of the Node server. */
export async function cacheBounds() {
  return {
    dnsCacheEntries: defaultCacheOptions.maxEntries,
    storeMaxValueChars: defaultMemoryStoreOptions.maxValueChars,
    cardCacheBytes,
  };
}
