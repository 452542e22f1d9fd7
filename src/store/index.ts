/** The Store contract, the memory store and STORE_URL's parsing: what every runtime shares. */

export { defaultStoreUrl, parseStoreUrl, type StoreLocation } from './location.js';
export { createMemoryStore, defaultMemoryStoreOptions } from './memory.js';
export { type DueClaim, type Store, StoreOpenError, StoreUnavailableError } from './store.js';
