import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReportStore } from '../../src/node/reports/index.js';
import { defaultReadLimits, readReports } from '../../src/reports/read/index.js';
import { domain, readBare, reportFiles } from '../sections/reports-intake.js';
import { round } from '../stats.js';

/**
 * Where the intake's CPU goes besides HTTP (an experiment, not `npm run bench`;
 * docs/benchmarks.md, "Reports intake"): section 15's seeded files read bare, then the reports
 * they hold kept by the SQLite report store's `addReports`, one file a transaction as an upload
 * keeps them, in this process; CPU (user + system) per report for each, twice (the first round
 * warms up). INTAKE_SPLIT_BATCH keeps that many files' reports a transaction instead (what
 * concurrent uploads kept together would cost).
 *
 *   npx tsx bench/experiments/reports-intake-split.ts   (INTAKE_SPLIT_REPORTS, default 600;
 *   INTAKE_SPLIT_BATCH, default 1)
 */

const count = Number(process.env.INTAKE_SPLIT_REPORTS ?? 600);
const batch = Number(process.env.INTAKE_SPLIT_BATCH ?? 1);
const files = reportFiles(count, 0);
const parsed = await Promise.all(
  files.map((file) => readReports(file, 'application/gzip', defaultReadLimits)),
);
for (const pass of [1, 2]) {
  const bare = await readBare(files);
  const folder = mkdtempSync(join(tmpdir(), 'intake-split-'));
  const store = openSqliteReportStore(join(folder, 'reports.db'));
  await store.createInbox({
    id: 'split',
    domain,
    keyHash: 'split',
    viewToken: 'split-view',
    lang: 'en',
    verified: true,
    createdAt: Date.now(),
    autoWatch: null,
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let first = 0; first < parsed.length; first += batch) {
    await store.addReports(
      'split',
      parsed
        .slice(first, first + batch)
        .flat()
        .map((report) => ({ report, via: 'upload' as const, receivedAt: Date.now() })),
    );
  }
  const stored = process.cpuUsage(cpu);
  const storeMs = performance.now() - started;
  await store.close();
  rmSync(folder, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      round: pass,
      reports: count,
      batch,
      readCpuMsPerReport: round(bare.cpuMs / count, 2),
      storeCpuMsPerReport: round((stored.user + stored.system) / 1000 / count, 2),
      readMs: round(bare.ms),
      storeMs: round(storeMs),
    }),
  );
}
