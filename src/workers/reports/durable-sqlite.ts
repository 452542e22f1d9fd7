import type { SqliteDriver, SqlValue } from '../../reports-sqlite/index.js';

/**
 * A Durable Object's SQLite as the reports' SqliteDriver (src/reports-sqlite/driver.ts), so the
 * object runs the SQL the Node file runs (src/reports-sqlite/store.ts). Its `exec` runs a
 * statement at once and synchronously; `transactionSync` is its write transaction (the SQL API
 * refuses BEGIN and COMMIT). A statement's changed rows are read with `changes()`: the cursor's
 * `rowsWritten` counts the rows of indexes too.
 */
export function durableSqliteDriver(storage: DurableObjectStorage): SqliteDriver {
  const { sql } = storage;
  return {
    run(text: string, params: readonly SqlValue[]) {
      sql.exec(text, ...params).toArray();
      return sql.exec<{ changed: number }>('SELECT changes() AS changed').one().changed;
    },
    all: <T>(text: string, params: readonly SqlValue[]) =>
      sql.exec(text, ...params).toArray() as unknown as T[],
    exec(text: string) {
      sql.exec(text);
    },
    transaction: <T>(work: () => T) => storage.transactionSync(work),
  };
}
