import type Database from 'better-sqlite3';
import { StoreOpenError } from '../../store/index.js';

/**
 * The SQLite store's schema as numbered migrations. `schema_version` holds how many have been
 * applied; a start applies the missing ones in one transaction taken with BEGIN IMMEDIATE, so two
 * processes starting together on one file migrate it once. A new migration is appended, never
 * edited: files written by earlier versions are brought forward in order.
 */
const migrations: readonly string[] = [
  // 1: values, counters and set members, each with its expiry (epoch ms) indexed for the sweep.
  `CREATE TABLE entries (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX entries_by_expiry ON entries (expires_at);
   CREATE TABLE counters (
     key TEXT PRIMARY KEY,
     value INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX counters_by_expiry ON counters (expires_at);
   CREATE TABLE set_members (
     key TEXT NOT NULL,
     member TEXT NOT NULL,
     expires_at INTEGER NOT NULL,
     PRIMARY KEY (key, member)
   ) WITHOUT ROWID;
   CREATE INDEX set_members_by_expiry ON set_members (expires_at);`,
  // 2: due queues (watches and their webhook deliveries): an id per row, no expiry, found by
  // its due time (epoch ms) within its queue.
  `CREATE TABLE due (
     queue TEXT NOT NULL,
     id TEXT NOT NULL,
     due_at INTEGER NOT NULL,
     PRIMARY KEY (queue, id)
   ) WITHOUT ROWID;
   CREATE INDEX due_by_time ON due (queue, due_at);`,
];

export const sqliteMigrations = {
  /** The schema version this build writes. */
  latest: migrations.length,

  /** Brings the file to the latest schema; refuses a file written by a newer version. */
  apply(db: Database.Database): void {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    db.transaction(() => {
      const version = (db.prepare('SELECT version FROM schema_version').pluck().get() ??
        undefined) as number | undefined;
      if (version === undefined) db.prepare('INSERT INTO schema_version VALUES (0)').run();
      const from = version ?? 0;
      if (from > migrations.length) {
        throw new StoreOpenError(
          `the SQLite file has schema version ${from}, newer than this build's ${migrations.length}: run the newer build, or set STORE_URL to another file`,
        );
      }
      for (const migration of migrations.slice(from)) db.exec(migration);
      // Also a write when nothing was missing: a file that can be read but not written is found
      // at start, not at the first check.
      db.prepare('UPDATE schema_version SET version = ?').run(migrations.length);
    }).immediate();
  },
};
