import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sqliteMigrations } from '../../../src/node/store/sqlite-schema.js';
import { openSqliteStore } from '../../../src/node/store/sqlite.js';
import { StoreOpenError } from '../../../src/store/store.js';

/**
 * What only the SQLite store does: the file (created with its folder, WAL mode, a schema version),
 * a clear refusal of a path it cannot use, what survives a reopen, and the sweep that deletes
 * expired rows in batches and gives their pages back.
 */

const folder = () => mkdtempSync(join(tmpdir(), 'sqlite-store-'));

function fileSize(path: string): number {
  return statSync(path).size;
}

/** Runs with the process's umask set to `mask`, as a service started from a usual shell has it. */
function underUmask(mask: number): void {
  const before = process.umask(mask);
  onTestFinished(() => {
    process.umask(before);
  });
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the store files', () => {
  it('are private under umask 022: the folder 0700, the db, -wal and -shm 0600', async () => {
    underUmask(0o022);
    const dir = join(folder(), 'data');
    const file = join(dir, 'reputation.db');
    const exposed: string[] = [];
    const store = openSqliteStore(file, { onExposedFile: (path) => exposed.push(path) });
    onTestFinished(() => store.close());
    await store.set('token:ip:a', 'v', 60_000);
    expect(modeOf(dir)).toBe(0o700);
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path)).toBe(0o600);
    expect(exposed).toEqual([]);
  });

  it('are reported at open when others may already read them, with the chmod to run', async () => {
    underUmask(0o022);
    const dir = folder();
    const file = join(dir, 'reputation.db');
    const first = openSqliteStore(file);
    await first.set('k', 'v', 60_000);
    await first.close();
    chmodSync(file, 0o644);
    chmodSync(dir, 0o755);
    const exposed: [string, string][] = [];
    const store = openSqliteStore(file, {
      onExposedFile: (path, fix) => exposed.push([path, fix]),
    });
    onTestFinished(() => store.close());
    // SQLite made the new -wal and -shm with the database file's mode: reported with it.
    expect(exposed).toEqual([
      [dir, `chmod 700 ${dir}`],
      [file, `chmod 600 ${file}`],
      [`${file}-wal`, `chmod 600 ${file}-wal`],
      [`${file}-shm`, `chmod 600 ${file}-shm`],
    ]);
  });
});

describe('the SQLite file', () => {
  it('is created with its folder, in WAL mode, at the latest schema version', async () => {
    const file = join(folder(), 'nested', 'deeper', 'reputation.db');
    const store = openSqliteStore(file);
    await store.set('k', 'v', 60_000);
    await store.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT version FROM schema_version').pluck().all()).toEqual([
      sqliteMigrations.latest,
    ]);
    db.close();
  });

  it('keeps values, counters and sets across a close and a reopen', async () => {
    const file = join(folder(), 'store.db');
    const first = openSqliteStore(file);
    await first.set('token:ip:x', '{"ip":"8.8.4.4"}', 60_000);
    await first.increment('quota:ip:caller:2026-05-10', 3, 60_000);
    await first.addMembers('pool-discovery:p', ['192.0.2.1'], 60_000);
    await first.close();
    const again = openSqliteStore(file);
    expect(await again.get('token:ip:x')).toBe('{"ip":"8.8.4.4"}');
    expect(await again.count('quota:ip:caller:2026-05-10')).toBe(3);
    expect(await again.members('pool-discovery:p')).toEqual(['192.0.2.1']);
    await again.close();
  });

  it('writes no counter row when a counter is only read', async () => {
    const file = join(folder(), 'store.db');
    const store = openSqliteStore(file);
    expect(await store.count('quota:ip:caller:2026-05-10')).toBe(0);
    await store.close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM counters').pluck().get()).toBe(0);
    db.close();
  });
});

describe('a SQLite path that cannot be used', () => {
  function refusal(path: string): string {
    try {
      openSqliteStore(path).close();
    } catch (error) {
      expect(error).toBeInstanceOf(StoreOpenError);
      return (error as Error).message;
    }
    throw new Error(`${path} was opened`);
  }

  it.each([
    ['whose folder is a file', () => join(regularFile(), 'reputation.db')],
    ['that is a folder', () => folder()],
    ['that is not a database', () => regularFile('this is not SQLite, just text '.repeat(40))],
  ])('is refused in one line naming STORE_URL: a path %s', (_, path) => {
    const message = refusal(path());
    expect(message).toMatch(/^STORE_URL: /);
    expect(message).not.toContain('\n');
  });

  it('is refused when a newer version wrote the file', async () => {
    const file = join(folder(), 'store.db');
    (await openSqliteStore(file)).close();
    const db = new Database(file);
    db.prepare('UPDATE schema_version SET version = ?').run(sqliteMigrations.latest + 1);
    db.close();
    expect(refusal(file)).toMatch(/^STORE_URL: .*schema version/);
  });
});

function regularFile(content = 'x'): string {
  const file = join(folder(), 'file');
  writeFileSync(file, content);
  return file;
}

describe('the sweep', () => {
  it('deletes every expired row in batches, keeps the live ones, and shrinks the file', async () => {
    const file = join(folder(), 'store.db');
    let now = Date.parse('2026-05-10T12:00:00Z');
    const store = openSqliteStore(file, { now: () => now, sweepBatch: 100 });
    const result = JSON.stringify({ ip: '192.0.2.1', lists: 'x'.repeat(2000) });
    for (let i = 0; i < 1500; i++) await store.set(`token:ip:${i}`, result, 60_000);
    for (let i = 0; i < 300; i++) await store.increment(`quota:ip:${i}`, 1, 60_000);
    await store.addMembers(
      'pool-discovery:p',
      Array.from({ length: 250 }, (_, i) => `192.0.2.${i}`),
      60_000,
    );
    await store.set('token:ip:live', result, 3_600_000);
    const full = fileSize(file) + fileSize(`${file}-wal`);

    now += 120_000;
    // Expired rows are gone for readers at once, before any sweep.
    expect(await store.get('token:ip:0')).toBeUndefined();
    expect(await store.count('quota:ip:0')).toBe(0);
    expect(await store.members('pool-discovery:p')).toEqual([]);

    expect(await store.sweep()).toBe(1500 + 300 + 250);
    expect(await store.get('token:ip:live')).toBe(result);
    expect(await store.sweep()).toBe(0);
    await store.close();
    // Closing checkpoints the WAL into the file and removes it.
    expect(fileSize(file)).toBeLessThan(full / 5);
  });

  it('lets requests run between its batches', async () => {
    let now = Date.now();
    const store = openSqliteStore(join(folder(), 'store.db'), { now: () => now, sweepBatch: 50 });
    for (let i = 0; i < 1000; i++) await store.set(`k${i}`, 'v', 1000);
    now += 5000;
    let readsDuringSweep = 0;
    const sweeping = store.sweep();
    const reading = (async () => {
      while (readsDuringSweep < 5) {
        await new Promise((next) => setImmediate(next));
        await store.get('k1');
        readsDuringSweep++;
      }
    })();
    expect(await sweeping).toBe(1000);
    await reading;
    expect(readsDuringSweep).toBe(5);
    await store.close();
  });
});
