import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { dropSourcelessMaps } from './sourceless-maps.js';

/**
 * The suites that run inside workerd, the Workers runtime, through @cloudflare/vitest-pool-workers
 * (docs/edge.md, "Tests"): the Worker as wrangler.toml builds it, with its Durable Objects,
 * resolving over DoH through fixture worlds that the fixture service (fixture-control.ts, started
 * by global-setup.ts in Node) serves on 127.0.0.1.
 *
 * Besides its own files, the project runs route suites of the Node project: they are written
 * against support/harness.ts, and here `support/service.js` is this project's
 * (workerd/support/service.ts), which serves them from the Worker instead of the Node server.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const workerdService = fileURLToPath(new URL('./support/service.ts', import.meta.url));

// The Worker's build step (docs/edge.md, "The build step"): satori's text shaper as a module in
// generated/, written again here (only if its bytes changed) so the pool never bundles a stale one.
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/extract-harfbuzz.ts'], { cwd: root });

/** A log line of the Worker's logger (src/lib/log.ts) at info or debug. */
const workerInfoLine = /^\{"time":"[^"]+","level":"(info|debug)",/;

/** Route suites of the Node project that run here too. */
export const sharedRouteSuites = [
  'test/app.test.ts',
  'test/tools/ip/check.test.ts',
  'test/tools/ip/share.test.ts',
  'test/tools/domain/check.test.ts',
  'test/tools/domain/share.test.ts',
  'test/tools/pool/discover.test.ts',
  'test/tools/pool/check.test.ts',
  'test/tools/pool/share.test.ts',
  'test/tools/common/aliases.test.ts',
  'test/tools/lists.test.ts',
  'test/http/captcha-flow.test.ts',
  'test/operations/health.test.ts',
  'test/operations/request-ids.test.ts',
];

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      // The Worker's log lines go to the console, which the pool prints: a Durable Object's
      // (the zone monitor's self-test) and a suite's calls into the Worker's entry logged at
      // info on a passing run. A suite that reads the log sets LOG_LEVEL itself, with a sink.
      miniflare: { bindings: { LOG_LEVEL: 'error' } },
    }),
    // A dependency's map that names sources its package does not ship (sourceless-maps.ts).
    dropSourcelessMaps(),
  ],
  resolve: {
    alias: [{ find: /^(\.\.?\/)+support\/service\.js$/, replacement: workerdService }],
  },
  // The reports' sample files, imported as bytes (`?inline`) by the suites of the mail doors.
  assetsInclude: ['**/test/fixtures/reports/**/*.{xml,gz,zip,eml,json}'],
  test: {
    name: 'workerd',
    root,
    include: ['test/workerd/**/*.test.ts', ...sharedRouteSuites],
    globalSetup: ['test/workerd/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The zone monitor's Durable Object logs on the console at its service's level, and a test
    // service logs at info so that a suite can read its request lines (from a sink, not the
    // console): the monitor's info lines (its self-test) are dropped here; an error of the
    // Worker's still shows.
    onConsoleLog: (log) => !workerInfoLine.test(log),
    // One workerd for every file (each file's services keep their own store keys and monitor):
    // starting one per file took most of the project's time.
    isolate: false,
  },
});
