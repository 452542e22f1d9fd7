import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openStore } from '../../../src/node/store/open.js';
import { sqliteMigrations } from '../../../src/node/store/sqlite-schema.js';
import { type StoreLocation, parseStoreUrl } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/store.js';
import { freshRedisUrl } from '../../support/redis.js';

/**
 * STORE_NAMESPACE: two deployments on one SQLite file or one Redis, each in its namespace, see
 * nothing of each other: values (tokens, cached results), counters (quotas), sets (pool
 * discoveries, watch caps) and due queues (watches). And a file written before namespaces keeps
 * its rows, in the default namespace.
 */

const minute = 60_000;

async function opened(location: StoreLocation, namespace: string): Promise<Store> {
  const store = await openStore(location, { namespace });
  onTestFinished(() => store.close());
  return store;
}

describe.each([
  [
    'one SQLite file',
    async () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'namespace-')), 'store.db')}`,
  ],
  ['one Redis', freshRedisUrl],
])('two namespaces on %s', (_name, url) => {
  it('share no value, counter, set or due queue', async () => {
    const location = parseStoreUrl(await url());
    const production = await opened(location, 'production');
    const staging = await opened(location, 'staging');
    await production.set('token:ip:abc', '{"result":1}', minute);
    await production.increment('quota:ip:192.0.2.1:2026-05-10', 5, minute);
    await production.addMembers('pool-discovery:pool.example', ['192.0.2.7'], minute);
    await production.putDue('watches', 'w1', 0);

    expect(await staging.get('token:ip:abc')).toBeUndefined();
    expect(await staging.count('quota:ip:192.0.2.1:2026-05-10')).toBe(0);
    expect(await staging.incrementWithin('quota:ip:192.0.2.1:2026-05-10', 5, minute)).toBe(1);
    expect(await staging.members('pool-discovery:pool.example')).toEqual([]);
    expect(await staging.claimDue('watches', Date.now(), 10, minute)).toEqual([]);
    expect(await staging.countDue('watches')).toBe(0);

    expect(await production.get('token:ip:abc')).toBe('{"result":1}');
    expect(await production.count('quota:ip:192.0.2.1:2026-05-10')).toBe(5);
    expect(await production.members('pool-discovery:pool.example')).toEqual(['192.0.2.7']);
    expect(await production.countDue('watches')).toBe(1);
  });
});

describe('a SQLite file written before namespaces', () => {
  it('keeps its rows, in the default namespace', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'namespace-')), 'store.db');
    const location = parseStoreUrl(`sqlite:${file}`);
    // A file at schema version 2, as the version before namespaces wrote it.
    const first = await opened(location, 'default');
    await first.close();
    const db = new Database(file);
    db.exec(`DELETE FROM entries; UPDATE schema_version SET version = 2;
             INSERT INTO entries VALUES ('token:ip:old', 'kept', ${Date.now() + minute});`);
    db.close();
    const upgraded = await opened(location, 'default');
    expect(await upgraded.get('token:ip:old')).toBe('kept');
    expect(await (await opened(location, 'staging')).get('token:ip:old')).toBeUndefined();
    expect(sqliteMigrations.latest).toBe(3);
  });
});
