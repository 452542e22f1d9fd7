/**
 * What `STORE_URL` names (docs/DESIGN.md, Configuration): `memory:`, `sqlite:PATH` (relative paths
 * from the working directory) or `redis://[user:pass@]host:port/db` / `rediss://` (TLS).
 */
export type StoreLocation =
  { kind: 'memory' } | { kind: 'sqlite'; path: string } | { kind: 'redis'; url: string };

/** Unset STORE_URL: a file beside the working directory, so state survives a restart. */
export const defaultStoreUrl = 'sqlite:data/reputation.db';

/**
 * Reads STORE_URL, or throws an Error whose message says what is accepted. The message never
 * repeats the value: a Redis URL may carry a password.
 */
export function parseStoreUrl(url: string): StoreLocation {
  if (url === 'memory:') return { kind: 'memory' };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '' || path.startsWith('//')) {
      throw new Error('sqlite:PATH takes a file path, e.g. sqlite:data/reputation.db');
    }
    return { kind: 'sqlite', path };
  }
  if (/^rediss?:\/\//.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('not a valid redis:// URL');
    }
    if (parsed.hostname === '') throw new Error('a redis:// URL needs a host');
    if (!/^(\/\d{1,4})?\/?$/.test(parsed.pathname)) {
      throw new Error('the path of a redis:// URL is the database number, e.g. /0');
    }
    if (parsed.search !== '' || parsed.hash !== '') {
      throw new Error('a redis:// URL takes no query or fragment');
    }
    return { kind: 'redis', url };
  }
  throw new Error(
    'memory:, sqlite:PATH, redis://[user:pass@]host:port/db or rediss://[user:pass@]host:port/db',
  );
}
