import {
  createMemoryStore,
  type Store,
  type StoreLocation,
  withNamespace,
} from '../../store/index.js';
import { openRedisStore } from './redis.js';
import { openSqliteStore } from './sqlite.js';

/**
 * Opens the store STORE_URL names, every key in the deployment's namespace (STORE_NAMESPACE); a
 * store that cannot be opened throws StoreOpenError.
 */
export async function openStore(
  location: StoreLocation,
  options: {
    namespace?: string;
    onConnectionChange?: (up: boolean, detail: string) => void;
    /** A store file others may read (SQLite): reported at start, the chmod to run named. */
    onExposedFile?: (file: string, fix: string) => void;
  } = {},
): Promise<Store> {
  return withNamespace(await openBackend(location, options), options.namespace ?? 'default');
}

async function openBackend(
  location: StoreLocation,
  options: Parameters<typeof openStore>[1] & object,
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
