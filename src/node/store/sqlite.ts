import { resolve } from 'node:path';
import type { DueClaim, Store } from '../../store/index.js';
import { guardedSqlite as guarded, openSqliteFile, reportExposedFiles } from './sqlite-file.js';
import { sqliteMigrations } from './sqlite-schema.js';

/**
 * The default store (`STORE_URL=sqlite:PATH`): one file, shared by every process on the machine
 * that opens it (WAL mode: readers never wait for the writer; writers take turns through
 * SQLite's lock, waiting up to busyTimeoutMs). Each operation is one statement, so counters are
 * atomic across processes. Expired rows are invisible at once and deleted by a periodic sweep in
 * small batches; freed pages go back to the file system (auto_vacuum=INCREMENTAL), so the file
 * follows what is alive. Layout, sweeping and measurements: docs/storage.md.
 */

export interface SqliteStoreOptions {
  /** Epoch ms; injected so the benchmark can measure the file after the TTLs have passed. */
  now?: () => number;
  sweepIntervalMs?: number;
  /** Rows deleted per statement: each batch is a short write, so other processes are not held up. */
  sweepBatch?: number;
  busyTimeoutMs?: number;
  /**
   * Called at open for each store file (db, -wal, -shm) or its folder that other users may read
   * or enter, with the chmod that closes it: the files hold every token and caller address.
   */
  onExposedFile?: (file: string, fix: string) => void;
}

export interface SqliteStore extends Store {
  /** Deletes every expired row, batch by batch, and gives the freed pages back; the rows deleted. */
  sweep(): Promise<number>;
}

const defaults = { sweepIntervalMs: 60_000, sweepBatch: 500, busyTimeoutMs: 5000 };

/** Opens (creating file, folder and schema as needed) or throws StoreOpenError in one line. */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  const { sweepIntervalMs, sweepBatch, busyTimeoutMs } = { ...defaults, ...options };
  const now = options.now ?? Date.now;
  const file = resolve(path);
  const db = openSqliteFile(file, {
    busyTimeoutMs,
    variable: 'STORE_URL',
    migrate: (opened) => sqliteMigrations.apply(opened),
  });
  reportExposedFiles(file, options.onExposedFile);
  const incremental = db.pragma('auto_vacuum', { simple: true }) === 2;

  const statements = {
    get: db.prepare('SELECT value FROM entries WHERE key = ? AND expires_at > ?').pluck(),
    set: db.prepare(
      `INSERT INTO entries (key, value, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
    ),
    delete: db.prepare('DELETE FROM entries WHERE key = ?'),
    count: db.prepare('SELECT value FROM counters WHERE key = ? AND expires_at > ?').pluck(),
    // An expired row not yet swept counts as absent: it starts again with the new expiry. Every
    // expression of an upsert's SET reads the row as it was before the statement.
    increment: db
      .prepare(
        `INSERT INTO counters (key, value, expires_at) VALUES (@key, @by, @expiresAt)
         ON CONFLICT (key) DO UPDATE SET
           value = CASE WHEN expires_at <= @now THEN excluded.value ELSE value + excluded.value END,
           expires_at = CASE WHEN expires_at <= @now THEN excluded.expires_at ELSE expires_at END
         RETURNING value`,
      )
      .pluck(),
    // The same with a condition: when the live counter has reached the limit the update is not
    // made and RETURNING gives no row.
    incrementWithin: db
      .prepare(
        `INSERT INTO counters (key, value, expires_at) VALUES (@key, 1, @expiresAt)
         ON CONFLICT (key) DO UPDATE SET
           value = CASE WHEN expires_at <= @now THEN 1 ELSE value + 1 END,
           expires_at = CASE WHEN expires_at <= @now THEN excluded.expires_at ELSE expires_at END
         WHERE expires_at <= @now OR value < @limit
         RETURNING value`,
      )
      .pluck(),
    addMember: db.prepare(
      `INSERT INTO set_members (key, member, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key, member) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)`,
    ),
    members: db.prepare('SELECT member FROM set_members WHERE key = ? AND expires_at > ?').pluck(),
    // One statement: the row is written only while the member is live already or the live
    // members are fewer than the limit (an expired row not yet swept counts as absent).
    addMemberWithin: db.prepare(
      `INSERT INTO set_members (key, member, expires_at)
       SELECT @key, @member, @expiresAt
       WHERE EXISTS (SELECT 1 FROM set_members
                     WHERE key = @key AND member = @member AND expires_at > @now)
          OR (SELECT count(*) FROM set_members WHERE key = @key AND expires_at > @now) < @limit
       ON CONFLICT (key, member) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)`,
    ),
    removeMember: db.prepare('DELETE FROM set_members WHERE key = ? AND member = ?'),
    putDue: db.prepare(
      `INSERT INTO due (queue, id, due_at) VALUES (?, ?, ?)
       ON CONFLICT (queue, id) DO UPDATE SET due_at = excluded.due_at`,
    ),
    removeDue: db.prepare('DELETE FROM due WHERE queue = ? AND id = ?'),
    countDue: db.prepare('SELECT count(*) FROM due WHERE queue = ?').pluck(),
    earliestDue: db.prepare('SELECT min(due_at) FROM due WHERE queue = ?').pluck(),
    due: db.prepare(
      'SELECT id, due_at AS dueAt FROM due WHERE queue = ? AND due_at <= ? ORDER BY due_at LIMIT ?',
    ),
    anyDue: db.prepare('SELECT 1 FROM due WHERE queue = ? AND due_at <= ? LIMIT 1').pluck(),
    lease: db.prepare('UPDATE due SET due_at = ? WHERE queue = ? AND id = ?'),
    sweep: [
      db.prepare(
        'DELETE FROM entries WHERE rowid IN (SELECT rowid FROM entries WHERE expires_at <= ? LIMIT ?)',
      ),
      db.prepare(
        'DELETE FROM counters WHERE key IN (SELECT key FROM counters WHERE expires_at <= ? LIMIT ?)',
      ),
      db.prepare(
        `DELETE FROM set_members WHERE (key, member) IN
           (SELECT key, member FROM set_members WHERE expires_at <= ? LIMIT ?)`,
      ),
    ],
    freePages: db.prepare('PRAGMA freelist_count').pluck(),
  };
  const addMembers = db.transaction((key: string, members: readonly string[], at: number) => {
    for (const member of members) statements.addMember.run(key, member, at);
  });
  const removeMembers = db.transaction((key: string, members: readonly string[]) => {
    for (const member of members) statements.removeMember.run(key, member);
  });
  // Read and lease in one write transaction, taken at its start (BEGIN IMMEDIATE): another
  // process claiming at the same moment waits for it and then finds the ids leased.
  const claimDue = db.transaction(
    (queue: string, at: number, limit: number, leaseMs: number): DueClaim[] => {
      const claimed = statements.due.all(queue, at, limit) as DueClaim[];
      for (const { id } of claimed) statements.lease.run(at + leaseMs, queue, id);
      return claimed;
    },
  );

  let closed = false;
  let sweeping: Promise<number> | undefined;
  async function sweepAll(): Promise<number> {
    let deleted = 0;
    for (const statement of statements.sweep) {
      for (;;) {
        const { changes } = guarded(() => statement.run(now(), sweepBatch));
        deleted += changes;
        if (changes < sweepBatch || closed) break;
        // One batch per turn of the event loop: requests go on between batches.
        await new Promise((next) => setImmediate(next));
      }
    }
    // Give the freed pages back a batch at a time (incremental_vacuum moves no live data). A
    // file made without auto_vacuum keeps its free pages for reuse instead.
    let free = statements.freePages.get() as number;
    while (incremental && !closed && free > 0) {
      guarded(() => db.pragma(`incremental_vacuum(${sweepBatch})`));
      const left = statements.freePages.get() as number;
      if (left >= free) break;
      free = left;
      await new Promise((next) => setImmediate(next));
    }
    return deleted;
  }
  function sweep(): Promise<number> {
    sweeping ??= sweepAll().finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  }
  // A failed sweep (the disk, a lock held by another process) is tried again at the next tick.
  const sweepQuietly = () => void sweep().catch(() => undefined);
  const firstSweep = setTimeout(sweepQuietly, 1000);
  const sweeper = setInterval(sweepQuietly, sweepIntervalMs);
  firstSweep.unref();
  sweeper.unref();

  return {
    get: async (key) => guarded(() => statements.get.get(key, now()) as string | undefined),
    async set(key, value, ttlMs) {
      guarded(() => statements.set.run(key, value, now() + ttlMs));
    },
    count: async (key) => guarded(() => (statements.count.get(key, now()) as number) ?? 0),
    increment: async (key, by, ttlMs) =>
      guarded(() => {
        const at = now();
        return statements.increment.get({ key, by, expiresAt: at + ttlMs, now: at }) as number;
      }),
    incrementWithin: async (key, limit, ttlMs) =>
      guarded(() => {
        if (limit < 1) return undefined;
        const at = now();
        const params = { key, limit, expiresAt: at + ttlMs, now: at };
        return statements.incrementWithin.get(params) as number | undefined;
      }),
    async addMembers(key, members, ttlMs) {
      guarded(() => addMembers(key, members, now() + ttlMs));
    },
    members: async (key) => guarded(() => statements.members.all(key, now()) as string[]),
    addMemberWithin: async (key, member, limit, ttlMs) =>
      guarded(() => {
        const at = now();
        const params = { key, member, limit, expiresAt: at + ttlMs, now: at };
        return statements.addMemberWithin.run(params).changes > 0;
      }),
    async removeMembers(key, members) {
      guarded(() => removeMembers(key, members));
    },
    async delete(key) {
      guarded(() => statements.delete.run(key));
    },
    async putDue(queue, id, dueAt) {
      guarded(() => statements.putDue.run(queue, id, dueAt));
    },
    async removeDue(queue, id) {
      guarded(() => statements.removeDue.run(queue, id));
    },
    countDue: async (queue) => guarded(() => statements.countDue.get(queue) as number),
    earliestDue: async (queue) =>
      guarded(() => (statements.earliestDue.get(queue) as number | null) ?? undefined),
    claimDue: async (queue, at, limit, leaseMs) =>
      guarded(() => {
        // Most polls find nothing due: a read, which takes no lock, answers them, so idle
        // processes polling one file do not queue for its write lock.
        if (limit < 1 || statements.anyDue.get(queue, at) === undefined) return [];
        return claimDue.immediate(queue, at, limit, leaseMs);
      }),
    sweep,
    async close() {
      closed = true;
      clearTimeout(firstSweep);
      clearInterval(sweeper);
      await sweeping?.catch(() => undefined);
      db.close();
    },
  };
}
