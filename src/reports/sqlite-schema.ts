import type { SqliteDriver } from './sqlite-driver.js';

/**
 * The SQLite report store's tables (docs/reports.md, "Storage"), as numbered migrations any
 * SQLite runs: better-sqlite3 on Node, a Durable Object's SQLite on Workers. The table names
 * are the reports' own, so REPORTS_URL may name the file STORE_URL names. A new migration is
 * appended, never edited.
 *
 * - `report_inboxes`: the inboxes; a partial index finds those with auto_watch set.
 * - `reports`: one row per report kept, without its records: what `received` lists, its date
 *   (for the period), its receipt time (for retention) and its rollup (JSON), so that retention
 *   takes exactly its numbers out of the rollups.
 * - `dmarc_days`: per inbox, day and reporter: reports, messages, passes, alignments,
 *   dispositions (the totals, the reporters and the daily chart).
 * - `dmarc_sources`: per inbox, grain (day `d` or month `m`), bucket and source address.
 * - `dmarc_source_names`: per inbox, grain, address, bucket and name: the header From domains
 *   (`h`) and reporters (`r`) of each source, keyed by address first because they are read for a
 *   page of sources only.
 * - `tls_days`: per inbox, day, policy type and domain; `tls_failures`: per inbox, grain, bucket
 *   and failure kind.
 *
 * Each rollup row counts what it sums (`reports`, `records`, `policies`, `details`), so the row
 * goes when retention has taken its last contribution away; a partial index finds those rows.
 * Every count is an INTEGER, 64 bits in SQLite.
 */
const migrations: readonly string[] = [
  `CREATE TABLE report_inboxes (
     id TEXT PRIMARY KEY,
     domain TEXT NOT NULL,
     key_hash TEXT NOT NULL,
     view_token TEXT NOT NULL UNIQUE,
     lang TEXT NOT NULL,
     verified INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     auto_watch TEXT
   ) WITHOUT ROWID;
   CREATE INDEX report_inboxes_watching ON report_inboxes (created_at, id)
     WHERE auto_watch IS NOT NULL;
   CREATE TABLE reports (
     inbox_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     org TEXT NOT NULL,
     report_id TEXT NOT NULL,
     date TEXT NOT NULL,
     begin_at INTEGER NOT NULL,
     end_at INTEGER NOT NULL,
     records INTEGER NOT NULL,
     messages INTEGER NOT NULL,
     received_at INTEGER NOT NULL,
     via TEXT NOT NULL,
     rollup TEXT NOT NULL,
     PRIMARY KEY (inbox_id, kind, org, report_id)
   );
   CREATE INDEX reports_by_date ON reports (inbox_id, date, kind);
   CREATE INDEX reports_by_receipt ON reports (received_at);
   CREATE TABLE dmarc_days (
     inbox_id TEXT NOT NULL,
     date TEXT NOT NULL,
     org TEXT NOT NULL,
     reports INTEGER NOT NULL CHECK (reports >= 0),
     messages INTEGER NOT NULL,
     pass INTEGER NOT NULL,
     spf_aligned INTEGER NOT NULL,
     dkim_aligned INTEGER NOT NULL,
     disposition_none INTEGER NOT NULL,
     quarantine INTEGER NOT NULL,
     reject INTEGER NOT NULL,
     PRIMARY KEY (inbox_id, date, org)
   ) WITHOUT ROWID;
   CREATE INDEX dmarc_days_emptied ON dmarc_days (inbox_id) WHERE reports = 0;
   CREATE TABLE dmarc_sources (
     inbox_id TEXT NOT NULL,
     grain TEXT NOT NULL,
     bucket TEXT NOT NULL,
     ip TEXT NOT NULL,
     records INTEGER NOT NULL CHECK (records >= 0),
     messages INTEGER NOT NULL,
     pass INTEGER NOT NULL,
     spf_aligned INTEGER NOT NULL,
     dkim_aligned INTEGER NOT NULL,
     PRIMARY KEY (inbox_id, grain, bucket, ip)
   ) WITHOUT ROWID;
   CREATE INDEX dmarc_sources_emptied ON dmarc_sources (inbox_id) WHERE records = 0;
   CREATE TABLE dmarc_source_names (
     inbox_id TEXT NOT NULL,
     grain TEXT NOT NULL,
     ip TEXT NOT NULL,
     bucket TEXT NOT NULL,
     kind TEXT NOT NULL,
     name TEXT NOT NULL,
     records INTEGER NOT NULL CHECK (records >= 0),
     messages INTEGER NOT NULL,
     PRIMARY KEY (inbox_id, grain, ip, bucket, kind, name)
   ) WITHOUT ROWID;
   CREATE INDEX dmarc_source_names_emptied ON dmarc_source_names (inbox_id) WHERE records = 0;
   CREATE TABLE tls_days (
     inbox_id TEXT NOT NULL,
     date TEXT NOT NULL,
     policy_type TEXT NOT NULL,
     policy_domain TEXT NOT NULL,
     policies INTEGER NOT NULL CHECK (policies >= 0),
     success INTEGER NOT NULL,
     failure INTEGER NOT NULL,
     PRIMARY KEY (inbox_id, date, policy_type, policy_domain)
   ) WITHOUT ROWID;
   CREATE INDEX tls_days_emptied ON tls_days (inbox_id) WHERE policies = 0;
   CREATE TABLE tls_failures (
     inbox_id TEXT NOT NULL,
     grain TEXT NOT NULL,
     bucket TEXT NOT NULL,
     result_type TEXT NOT NULL,
     receiving_mx TEXT NOT NULL,
     sending_mta_ip TEXT NOT NULL,
     details INTEGER NOT NULL CHECK (details >= 0),
     sessions INTEGER NOT NULL,
     PRIMARY KEY (inbox_id, grain, bucket, result_type, receiving_mx, sending_mta_ip)
   ) WITHOUT ROWID;
   CREATE INDEX tls_failures_emptied ON tls_failures (inbox_id) WHERE details = 0;`,
];

/** The tables a store empties of an inbox's rows, and of rows retention has emptied. */
export const rollupTables = [
  { table: 'dmarc_days', count: 'reports' },
  { table: 'dmarc_sources', count: 'records' },
  { table: 'dmarc_source_names', count: 'records' },
  { table: 'tls_days', count: 'policies' },
  { table: 'tls_failures', count: 'details' },
] as const;

export class ReportSchemaError extends Error {}

export const reportSqliteMigrations = {
  latest: migrations.length,

  /**
   * Brings the database to the latest schema in one write transaction (taken at its start, so two
   * processes opening one file migrate it once); refuses a database a newer build wrote.
   */
  apply(driver: SqliteDriver): void {
    driver.exec('CREATE TABLE IF NOT EXISTS reports_schema_version (version INTEGER NOT NULL)');
    driver.transaction(() => {
      const [row] = driver.all<{ version: number }>(
        'SELECT version FROM reports_schema_version',
        [],
      );
      if (row === undefined) driver.run('INSERT INTO reports_schema_version VALUES (0)', []);
      const from = row?.version ?? 0;
      if (from > migrations.length) {
        throw new ReportSchemaError(
          `the reports database has schema version ${from}, newer than this build's ${migrations.length}`,
        );
      }
      for (const migration of migrations.slice(from)) driver.exec(migration);
      // A write even when nothing was missing: a database that cannot be written is found at start.
      driver.run('UPDATE reports_schema_version SET version = ?', [migrations.length]);
    });
  },
};
