import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';

/**
 * A database of the shared test PostgreSQL for one suite alone: test files run in parallel, and
 * two suites writing the same tables would see each other's rows. The server is thrown away with
 * the run, and its databases with it.
 */
export async function freshPostgresUrl(): Promise<string> {
  const url = new URL(inject('postgresUrl'));
  const name = `suite_${randomBytes(6).toString('hex')}`;
  const admin = postgres(url.href, { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.href;
}

/** A client on the database `url` names, for looking at (or emptying) what a store wrote. */
export function inspectPostgres(url: string): postgres.Sql {
  return postgres(url, { max: 1, onnotice: () => undefined });
}
