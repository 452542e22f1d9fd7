import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * `npm run build`: compiles src/ into dist/ (tsconfig.build.json), the JavaScript `npm start`
 * runs. `npm ci` runs it as the project's `prepare` script; `npm start` runs it first with
 * `--if-stale`, which rebuilds only when dist/ is missing or older than a source file, so a
 * checkout that moved on never starts yesterday's code (docs/operations.md, "Production start").
 * Plain JavaScript: it must run before anything is compiled, and without tsx.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;
const stamp = `${dist}/.built`;
/** What the build reads besides src/. */
const inputs = ['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((file) => root + file);
/** What tsconfig.build.json leaves out: the Worker, whose build writes src/workers/generated/. */
const notBuilt = new Set([`${root}src/workers`, `${root}src/worker.ts`]);

/** The newest modification time of the build's inputs. */
function newestInput() {
  let newest = 0;
  const visit = (path) => {
    if (notBuilt.has(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) visit(`${path}/${entry}`);
    } else newest = Math.max(newest, stats.mtimeMs);
  };
  for (const path of [`${root}src`, ...inputs]) visit(path);
  return newest;
}

const ifStale = process.argv.includes('--if-stale');
if (ifStale && existsSync(stamp) && statSync(stamp).mtimeMs >= newestInput()) process.exit(0);

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // `npm ci --omit=dev` installs no TypeScript: its `prepare` step has nothing to build with.
  if (process.env.npm_lifecycle_event === 'prepare') {
    console.error('build: TypeScript is not installed (--omit=dev?): dist/ not built');
    process.exit(0);
  }
  console.error(
    'build: dist/ is missing or older than src/, and TypeScript is not installed to build it: run npm ci (with the dev dependencies), then npm start',
  );
  process.exit(1);
}

// From nothing: a source file removed since the last build leaves no module behind.
rmSync(dist, { recursive: true, force: true });
const run = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], {
  stdio: 'inherit',
});
if (run.status !== 0) process.exit(run.status ?? 1);
writeFileSync(stamp, `${new Date().toISOString()}\n`);
