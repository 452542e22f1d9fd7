import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startRedisServer } from '../../fixtures/redis-server.js';

/**
 * Once per test run. Every Redis test shares one redis-server: the one `.ci/run` started
 * (TEST_REDIS_URL), or else one started here on a free port and stopped when the run ends, so a
 * plain `npm test` works on a developer's machine too. Without redis-server installed the run
 * fails, saying what to install: the Redis backend is never skipped.
 *
 * At the end, the run fails if it left the default store's file in the repository: every test
 * names its store (memory: or a temporary file), and only a test of the default may use it, in a
 * working directory of its own.
 */
const repositoryStore = fileURLToPath(new URL('../../data/reputation.db', import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_REDIS_URL;
  const server = given ? undefined : await startRedisServer();
  project.provide('redisUrl', given ?? server!.url);
  const storeExisted = existsSync(repositoryStore);
  return async () => {
    await server?.stop();
    if (!storeExisted && existsSync(repositoryStore)) {
      throw new Error(
        `a test wrote ${repositoryStore}: give it STORE_URL=memory: or a temporary sqlite: file`,
      );
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared test Redis, e.g. `redis://127.0.0.1:40123` (no database number). */
    redisUrl: string;
  }
}
