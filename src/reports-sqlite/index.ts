/**
 * The report store over any SQLite (docs/reports.md, "Storage"): the statements, the schema and
 * the group commit, run through a SqliteDriver that better-sqlite3 gives on Node and a Durable
 * Object's database on Workers. It builds on the reports' domain as the PostgreSQL store does.
 */

export type { SqliteDriver, SqlValue } from './driver.js';
export { reportSqliteMigrations } from './schema.js';
export { createSqliteReportStore, type SqliteReportStoreOptions } from './store.js';
