import type postgres from 'postgres';
import { reportMigrations } from '../../reports/index.js';
import { StoreOpenError } from '../../store/index.js';

const migrations = reportMigrations.postgres;

/** Any key of PostgreSQL's advisory locks, the same in every process: the migration's. */
const migrationLock = 41_000_001;

/**
 * Brings the database to the latest schema (src/reports/report-schema.ts) in one transaction, holding an advisory lock so that
 * processes starting together migrate it once; refuses a database a newer build wrote.
 */
export async function migratePostgres(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(${migrationLock})`);
    await tx.unsafe('CREATE TABLE IF NOT EXISTS reports_schema_version (version integer NOT NULL)');
    const [row] = await tx.unsafe<{ version: number }[]>(
      'SELECT version FROM reports_schema_version',
    );
    if (row === undefined) await tx.unsafe('INSERT INTO reports_schema_version VALUES (0)');
    const from = row?.version ?? 0;
    if (from > migrations.length) {
      throw new StoreOpenError(
        `the reports database has schema version ${from}, newer than this build's ${migrations.length}: run the newer build, or set REPORTS_URL to another database`,
        'REPORTS_URL',
      );
    }
    for (const migration of migrations.slice(from)) await tx.unsafe(migration);
    await tx.unsafe('UPDATE reports_schema_version SET version = $1', [migrations.length]);
  });
}
