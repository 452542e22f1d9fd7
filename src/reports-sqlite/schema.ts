import { reportMigrations, ReportSchemaError } from '../reports/index.js';
import type { SqliteDriver } from './driver.js';

const migrations = reportMigrations.sqlite;

/**
 * The report tables in any SQLite (src/reports/report-schema.ts): better-sqlite3's file on Node, a
 * Durable Object's database on Workers. `reports_schema_version` holds how many migrations ran.
 */
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
