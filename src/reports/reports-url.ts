/**
 * What `REPORTS_URL` names (docs/reports.md, "Storage"): `sqlite:PATH` (relative paths from the
 * working directory), `postgres://[user:password@]host[:port]/database[?sslmode=...]` (also
 * `postgresql://`) for a fleet, or `memory:` for tests.
 */
export type ReportStoreLocation =
  { kind: 'memory' } | { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

const accepted =
  'sqlite:PATH, postgres://[user:password@]host[:port]/database or memory:, e.g. sqlite:data/reports.db';

/**
 * Reads REPORTS_URL, or throws an Error whose message says what is accepted. The message never
 * repeats the value: a PostgreSQL URL may carry a password.
 */
export function parseReportsUrl(url: string): ReportStoreLocation {
  if (url === 'memory:') return { kind: 'memory' };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '' || path.startsWith('//')) {
      throw new Error('sqlite:PATH takes a file path, e.g. sqlite:data/reports.db');
    }
    return { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('not a valid postgres:// URL');
    }
    if (parsed.hostname === '') throw new Error('a postgres:// URL needs a host');
    if (!/^\/[^/]+$/.test(parsed.pathname)) {
      throw new Error('the path of a postgres:// URL is the database, e.g. /reports');
    }
    if (parsed.hash !== '') throw new Error('a postgres:// URL takes no fragment');
    return { kind: 'postgres', url };
  }
  throw new Error(accepted);
}

/**
 * REPORTS_URL when unset: a file beside the service's other data, so reports survive a restart
 * where its store does: `reports.db` in the folder of STORE_URL's SQLite file (the default
 * `data/`), the memory for a memory store (tests), and `data/reports.db` beside a Redis store
 * (a fleet sets REPORTS_URL to its PostgreSQL).
 */
export function defaultReportsUrl(storeUrl: string): string {
  if (storeUrl === 'memory:') return 'memory:';
  if (storeUrl.startsWith('sqlite:') && !storeUrl.startsWith('sqlite://')) {
    const path = storeUrl.slice('sqlite:'.length);
    const folder = path.slice(0, path.lastIndexOf('/') + 1);
    return `sqlite:${folder}reports.db`;
  }
  return 'sqlite:data/reports.db';
}
