import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One redis-server for the run (TEST_REDIS_URL, or one of its own): test/support/redis-global-setup.ts.
    // The mail probes' test CA, trusted through NODE_EXTRA_CA_CERTS: test/support/mail-ca-global-setup.ts.
    // One PostgreSQL server (TEST_POSTGRES_URL, or one of its own): test/support/postgres-global-setup.ts.
    // dist/ built from src/ when older, for the suites' service processes: test/support/build-global-setup.ts.
    globalSetup: [
      'test/support/build-global-setup.ts',
      'test/support/redis-global-setup.ts',
      'test/support/mail-ca-global-setup.ts',
      'test/support/postgres-global-setup.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Vitest's default is one file at a time on a 2-core machine (cores - 1); most suites wait on
    // sockets, child processes, timers and browsers, so three at a time keep both cores busy
    // (docs/decisions.md, "The test run").
    maxWorkers: 3,
    // A passing run prints its summary only: the logs of a test (the service's JSON lines, what it
    // wrote to stdout and stderr) are shown when it fails.
    silent: 'passed-only',
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/workerd/**'],
          // The files of a worker share its module cache instead of importing hono, zod, the zone
          // list and the rest anew per file (about half the suite's CPU, docs/decisions.md): sound
          // because src/ keeps no module-level state (dependencies are passed in, docs/DESIGN.md)
          // and every test builds its own services and closes them.
          isolate: false,
        },
      },
      // Inside workerd, the Workers runtime (docs/edge.md).
      'test/workerd/vitest.config.ts',
    ],
  },
});
