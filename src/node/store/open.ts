import { createMemoryStore, type Store, type StoreLocation } from '../../store/index.js';
import { openRedisStore } from './redis.js';
import { openSqliteStore } from './sqlite.js';

/** Opens the store STORE_URL names; a store that cannot be opened throws StoreOpenError. */
export async function openStore(
  location: StoreLocation,
  options: {
    onConnectionChange?: (up: boolean, detail: string) => void;
    /** A store file others may read (SQLite): reported at start, the chmod to run named. */
    onExposedFile?: (file: string, fix: string) => void;
  } = {},
): Promise<Store> {
  switch (location.kind) {
    case 'memory':
      return createMemoryStore();
    case 'sqlite':
      return openSqliteStore(location.path, {
        ...(options.onExposedFile ? { onExposedFile: options.onExposedFile } : {}),
      });
    case 'redis':
      return openRedisStore(location.url, options);
  }
}
