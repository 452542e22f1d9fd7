import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * `npm run build`: compiles src/ into dist/ (tsconfig.build.json), the JavaScript `npm start`
 * runs, and writes the Worker's WebAssembly modules into generated/ (scripts/extract-harfbuzz.ts),
 * which `wrangler dev` and `wrangler deploy` bundle. `npm ci` runs it as the project's `prepare`
 * script; `npm start` runs it first with `--if-stale`, which rebuilds only when dist/ is missing or
 * older than a source file, so a checkout that moved on never starts yesterday's code
 * (docs/operations.md, "Production start"). Plain JavaScript: it must run before anything is
 * compiled; the extraction runs under tsx, a production dependency.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;
const stamp = `${dist}/.built`;
/** What the build reads besides src/. */
const inputs = ['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((file) => root + file);
/** What tsconfig.build.json leaves out: the Worker, which wrangler bundles. */
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

// The Worker's modules (satori and tsx are production dependencies, so --omit=dev writes them
// too); `npm start` needs none of them and leaves them as they are.
if (!ifStale) {
  const extraction = spawnSync(
    process.execPath,
    ['--import', 'tsx', `${root}scripts/extract-harfbuzz.ts`],
    { cwd: root, stdio: 'inherit' },
  );
  if (extraction.status !== 0) process.exit(extraction.status ?? 1);
}

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
// The stamp carries the time the build started: a source saved while tsc runs is newer than it,
// so the next --if-stale build does not skip it.
const started = new Date();
const run = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], {
  stdio: 'inherit',
});
if (run.status !== 0) process.exit(run.status ?? 1);
writeFileSync(stamp, `${started.toISOString()}\n`);
utimesSync(stamp, started, started);
