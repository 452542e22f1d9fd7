import type { TestProject } from 'vitest/node';
import { startRedisServer } from '../fixtures/redis-server.js';

/**
 * Every Redis test of a run shares one redis-server: the one `.ci/run` started (TEST_REDIS_URL),
 * or else one started here on a free port and stopped when the run ends, so a plain `npm test`
 * works on a developer's machine too. Without redis-server installed the run fails, saying what
 * to install: the Redis backend is never skipped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_REDIS_URL;
  const server = given ? undefined : await startRedisServer();
  project.provide('redisUrl', given ?? server!.url);
  return async () => {
    await server?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared test Redis, e.g. `redis://127.0.0.1:40123` (no database number). */
    redisUrl: string;
  }
}
