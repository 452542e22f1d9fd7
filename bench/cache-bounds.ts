import { defaultCacheOptions } from '../src/dns/index.js';
import { cardCacheBytes } from '../src/node/index.js';
import { defaultMemoryStoreOptions } from '../src/store/index.js';

/** The configured cache bounds of the Node server. */
export async function cacheBounds() {
  return {
    dnsCacheEntries: defaultCacheOptions.maxEntries,
    storeMaxValueChars: defaultMemoryStoreOptions.maxValueChars,
    cardCacheBytes,
  };
}
