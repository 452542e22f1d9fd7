/**
 * What the SQLite report store needs of a SQLite: synchronous statements with `?` parameters and
 * write transactions. better-sqlite3 gives it on Node (src/node/reports/); a Durable Object's
 * `ctx.storage.sql.exec` and `transactionSync` give it on Workers. Nothing here names either.
 */

export type SqlValue = string | number | null;

export interface SqliteDriver {
  /** Runs one statement; the rows it inserted, changed or deleted. */
  run(sql: string, params: readonly SqlValue[]): number;
  /** The rows one statement reads, as objects keyed by column name. */
  all<T>(sql: string, params: readonly SqlValue[]): T[];
  /** Runs several statements with no parameters (the schema). */
  exec(sql: string): void;
  /**
   * Runs `work` in one write transaction taken at its start (BEGIN IMMEDIATE on a file several
   * processes share): all of it is kept, or none of it when `work` throws.
   */
  transaction<T>(work: () => T): T;
}
