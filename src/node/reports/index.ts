/**
 * The report stores that need Node (docs/reports.md, "Storage"): SQLite (the default) and
 * PostgreSQL, and the one REPORTS_URL opens.
 */

export { openReportStore } from './open.js';
export {
  openPostgresReportStore,
  type PostgresReportStoreOptions,
} from './postgres-report-store.js';
export { openSqliteReportStore, type SqliteReportStoreOptions } from './sqlite-report-store.js';
