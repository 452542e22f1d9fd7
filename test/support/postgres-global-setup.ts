import type { TestProject } from 'vitest/node';
import { startPostgresServer } from '../../fixtures/postgres-server.js';

/**
 * Once per test run: every PostgreSQL test shares one server, the one TEST_POSTGRES_URL names (a
 * throwaway server whose user may create databases), or else one started here in a throwaway
 * cluster (fixtures/postgres-server.ts, about 0.2 s once its template exists) and stopped when the
 * run ends. Each suite works in a database of its own (test/support/postgres.ts). Without
 * PostgreSQL installed the run fails, saying what to install: the backend is never skipped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_POSTGRES_URL;
  const server = given ? undefined : await startPostgresServer();
  project.provide('postgresUrl', given ?? server!.url);
  return async () => {
    await server?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared test PostgreSQL, e.g. `postgres://postgres@127.0.0.1:40123/postgres`. */
    postgresUrl: string;
  }
}
