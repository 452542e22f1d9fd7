import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StoreOpenError, StoreUnavailableError } from '../../store/index.js';

/**
 * A SQLite file of the service's data (the store, STORE_URL; the reports, REPORTS_URL), opened
 * with the same care: a private folder and files whatever the umask, WAL with its writers waiting
 * their turn, and every failure a one-line message naming the variable to change.
 */

export interface SqliteFileOptions {
  /** How long a writer waits for another process's lock before SQLITE_BUSY. */
  busyTimeoutMs: number;
  /** The variable that names the file, in the messages: `STORE_URL`, `REPORTS_URL`. */
  variable: string;
  /** Brings the schema up to date; a StoreOpenError it throws is passed on as it is. */
  migrate: (db: Database.Database) => void;
}

/** Owner only: the folder searchable, the files readable and writable, by this user alone. */
const privateFolder = 0o700;
const privateFile = 0o600;
/** Group and other permission bits. */
const othersBits = 0o077;

/** Opens (creating file, folder and schema as needed) or throws StoreOpenError in one line. */
export function openSqliteFile(file: string, options: SqliteFileOptions): Database.Database {
  const { busyTimeoutMs, variable } = options;
  try {
    // The folders made here are private whatever the umask (the mode given is masked by it, and a
    // umask of 077 or 022 leaves 0700 alone, but chmod states it): a folder that already exists is
    // the operator's, and is only reported if others may enter it.
    const created = mkdirSync(dirname(file), { recursive: true, mode: privateFolder });
    if (created !== undefined) chmodSync(dirname(file), privateFolder);
  } catch (error) {
    throw new StoreOpenError(
      `cannot create the folder of ${file}: ${reason(error)}: set ${variable} to sqlite:PATH in a folder this user may write`,
      variable,
    );
  }
  try {
    // The database file is made before SQLite opens it, 0600: SQLite gives its -wal and -shm files
    // the database file's permissions (its unix VFS copies them), so all three are private.
    if (!existsSync(file)) {
      closeSync(openSync(file, 'a', privateFile));
      chmodSync(file, privateFile);
    }
  } catch (error) {
    throw new StoreOpenError(cannotOpen(file, error, variable), variable);
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: busyTimeoutMs });
    // Before the first table exists, or it has no effect: lets the sweep shrink the file.
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL: a commit survives a crash of the process; only a power loss can undo the
    // last few, and never corrupts the file (https://www.sqlite.org/pragma.html#pragma_synchronous).
    db.pragma('synchronous = NORMAL');
    // Checkpoints bring the WAL back to this size once readers let go, so it does not keep a peak.
    db.pragma('journal_size_limit = 16777216');
    options.migrate(db);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof StoreOpenError) throw error;
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_NOTADB') {
      throw new StoreOpenError(
        `${file} is not a SQLite database: set ${variable} to another file, or move this one away`,
        variable,
      );
    }
    throw new StoreOpenError(cannotOpen(file, error, variable), variable);
  }
}

const cannotOpen = (file: string, error: unknown, variable: string) =>
  `cannot open or write the SQLite file ${file}: ${reason(error)}: let this user write it and its folder, or set ${variable} to another path`;

/** Reports the folder and files of a SQLite file that group or others may read, write or enter. */
export function reportExposedFiles(
  file: string,
  report: ((file: string, fix: string) => void) | undefined,
): void {
  if (!report) return;
  const folder = dirname(file);
  for (const [path, mode] of [
    [folder, privateFolder],
    [file, privateFile],
    [`${file}-wal`, privateFile],
    [`${file}-shm`, privateFile],
  ] as const) {
    let current: number;
    try {
      current = statSync(path).mode;
    } catch {
      continue;
    }
    if ((current & othersBits) !== 0) report(path, `chmod ${mode.toString(8)} ${path}`);
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A SQLite failure at run time (SQLITE_BUSY past the timeout, SQLITE_FULL, SQLITE_IOERR) is a 503
 * (StoreUnavailableError); `what` names the store in its message.
 */
export function guardedSqlite<T>(operation: () => T, what = 'the SQLite store'): T {
  try {
    return operation();
  } catch (error) {
    if (error instanceof Database.SqliteError) {
      throw new StoreUnavailableError(`${what} failed (${error.code})`, { cause: error });
    }
    throw error;
  }
}
