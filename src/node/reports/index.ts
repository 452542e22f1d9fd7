/**
 * The reports on Node: the stores that need it (docs/reports.md, "Storage"), SQLite (the default)
 * and PostgreSQL, and the one REPORTS_URL opens; the mail doors, SMTP and IMAP ("How reports come
 * in").
 */

export { openReportStore } from './open.js';
export {
  openPostgresReportStore,
  type PostgresReportStoreOptions,
} from './postgres-report-store.js';
export { openSqliteReportStore, type SqliteReportStoreOptions } from './sqlite-report-store.js';
export { type MailDoors, type MailDoorsSettings, startMailDoors } from './mail-doors.js';
export { smtpDoorDefaults } from './smtp-door.js';
