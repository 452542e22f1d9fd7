/** The report stores that need Node: SQLite (the default) and PostgreSQL, the one REPORTS_URL opens. */

export { openSqliteReportStore, type SqliteReportStoreOptions } from './sqlite-report-store.js';
