import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { ReportSchemaError, type ReportStore } from '../../reports/index.js';
import {
  createSqliteReportStore,
  reportSqliteMigrations,
  type SqliteDriver,
} from '../../reports-sqlite/index.js';
import { StoreOpenError } from '../../store/index.js';
import { guardedSqlite, openSqliteFile, reportExposedFiles } from '../store/index.js';

/**
 * The default report store (`REPORTS_URL=sqlite:PATH`, docs/reports.md "Storage"): a file beside
 * the service's other data, opened with the store's care (private files, WAL, busy waits,
 * src/node/store/sqlite-file.ts), running the SQL every SQLite of the reports runs
 * (src/reports-sqlite/store.ts). Several processes may share the file: writers take turns.
 */

export interface SqliteReportStoreOptions {
  busyTimeoutMs?: number;
  /** A file others may read: reported at start with the chmod that closes it. */
  onExposedFile?: (file: string, fix: string) => void;
  /** Reports a purge forgets per transaction. */
  purgeBatch?: number;
}

export function openSqliteReportStore(
  path: string,
  options: SqliteReportStoreOptions = {},
): ReportStore {
  const file = resolve(path);
  let driver: SqliteDriver | undefined;
  const db = openSqliteFile(file, {
    busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    variable: 'REPORTS_URL',
    migrate(opened) {
      driver = betterSqliteDriver(opened);
      try {
        reportSqliteMigrations.apply(driver);
      } catch (error) {
        if (!(error instanceof ReportSchemaError)) throw error;
        throw new StoreOpenError(
          `${error.message}: run the newer build, or set REPORTS_URL to another file`,
          'REPORTS_URL',
        );
      }
    },
  });
  reportExposedFiles(file, options.onExposedFile);
  const store = createSqliteReportStore(driver!, {
    ...(options.purgeBatch ? { purgeBatch: options.purgeBatch } : {}),
    // The uploads read in one turn of the event loop are kept in one transaction after it.
    groupCommit: (write) => void setImmediate(write),
    onClose: () => db.close(),
  });
  return {
    ...store,
    async purge(receivedBefore, signal) {
      const forgotten = await store.purge(receivedBefore, signal);
      // Give the freed pages back to the file system (the file is auto_vacuum=INCREMENTAL).
      if (forgotten > 0) guarded(() => db.pragma('incremental_vacuum'));
      return forgotten;
    },
  };
}

function guarded<T>(operation: () => T): T {
  return guardedSqlite(operation, 'the SQLite report store');
}

/** better-sqlite3 as a SqliteDriver: each statement prepared once, transactions taken at once. */
function betterSqliteDriver(db: Database.Database): SqliteDriver {
  const statements = new Map<string, Database.Statement>();
  function prepared(sql: string): Database.Statement {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  }
  const inTransaction = db.transaction((work: () => unknown) => work());
  return {
    run: (sql, params) => guarded(() => prepared(sql).run(...params).changes),
    all: <T>(sql: string, params: readonly (string | number | null)[]) =>
      guarded(() => prepared(sql).all(...params) as T[]),
    exec: (sql) => guarded(() => void db.exec(sql)),
    transaction: <T>(work: () => T) => guarded(() => inTransaction.immediate(work) as T),
  };
}
