import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/**
 * Before any suite starts a service process, and again before each rerun of `vitest` in watch
 * mode: dist/ brought up to date with src/, as `npm start`'s `prestart` step does
 * (`scripts/build.mjs --if-stale`: nothing when dist/ is newer than every source file, a build of
 * a few seconds of CPU after an edit). The suites that run the service in a process of its own
 * run dist/server.js, as `npm start` does (test/support/server-process.ts): it starts on about
 * two thirds of the CPU of src/ under tsx's loader, paid by every process of the run
 * (docs/decisions.md, "The test run").
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

function buildIfStale(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (build.status !== 0) {
    throw new Error(`scripts/build.mjs --if-stale failed:\n${build.stdout}${build.stderr}`);
  }
}

export default function setup(project: TestProject): void {
  buildIfStale();
  project.onTestsRerun(buildIfStale);
}
