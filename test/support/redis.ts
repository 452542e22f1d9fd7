import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { testDatabases } from '../../fixtures/redis-server.js';

/**
 * A database of the shared test Redis for one suite alone, emptied first: test files run in
 * parallel, and two suites counting the same caller's quota in one database would see each
 * other's checks. Databases are handed out by a counter kept in database 0.
 */
export async function freshRedisUrl(): Promise<string> {
  const base = new URL(inject('redisUrl'));
  base.pathname = '';
  const admin = new Redis(base.href, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await admin.connect();
    const [, databases] = (await admin.config('GET', 'databases')) as [string, string];
    if (Number(databases) < testDatabases) {
      throw new Error(
        `the test Redis has ${databases} databases: start it with --databases ${testDatabases}`,
      );
    }
    const next = await admin.incr('test-suite-databases');
    const db = 1 + ((next - 1) % (testDatabases - 1));
    await admin.select(db);
    await admin.flushdb();
    base.pathname = `/${db}`;
    return base.href;
  } finally {
    admin.disconnect();
  }
}

/** A client on the same database as `url`, for looking at what the store wrote. */
export function inspect(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1 });
}
