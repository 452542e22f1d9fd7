import { cacheAllowanceMiB, cacheBounds } from '../cache-bounds.js';
import { FullGcLog } from '../gc-log.js';
import { ratioOf } from '../report.js';
import { startService, waitForCardThreads } from '../service.js';
import { sqliteFileMiB, sweptSqliteFile } from '../sqlite-file.js';
import { round } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 6. Memory: RSS of a fresh service process after 20,000 distinct checks; and its SQLite file
 * (the default store) after them, and once their TTLs have passed and the sweep has run.
 */
export async function measureMemory({
  settings,
  world,
  dns,
  service,
  serviceLaunch,
  checks,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { concurrency, memoryChecks } = settings;
  // A process of its own: the RSS left by the other sections (autocannon's bursts, sharp's
  // buffers) would blur what the checks keep. --trace-gc tells the live heap after each full GC.
  progress(
    `6. memory: a fresh service, ${memoryChecks} distinct checks, concurrency ${concurrency}`,
  );
  await service.stop();
  await dns.setLatency(0);
  const fullGcs = new FullGcLog();
  const fresh = await startService({
    dnsServer: dns.address,
    env: serviceLaunch.env,
    nodeFlags: [...serviceLaunch.nodeFlags, '--trace-gc'],
    onLine: (line) => fullGcs.read(line),
  });
  let run;
  let atStart;
  let after;
  try {
    // An address of section 1's warm-up: fresh to this process, and not one of the counted checks.
    await waitForCardThreads(fresh, world.sets.latencyWarmup[0] ?? '');
    atStart = await fresh.memory();
    run = await checks.checkAll(world.sets.memory, 160_000, fresh.base);
    after = await fresh.memory();
  } finally {
    await fresh.stop();
  }
  const storeFile = fresh.storeUrl.replace(/^sqlite:/, '');
  const fileAfterChecks = await sqliteFileMiB(storeFile);
  // Past RESULT_TTL_S (600 s: the result cache's copies go), then past TOKEN_TTL_DAYS (30, the
  // longest TTL of what a check stores) and a day.
  const cacheSwept = await sweptSqliteFile(storeFile, 11 * 60_000);
  const swept = await sweptSqliteFile(storeFile, 31 * 86_400_000);
  const bounds = await cacheBounds();
  const allowanceMiB = await cacheAllowanceMiB();
  const limitMiB = round(atStart.rssMiB + allowanceMiB);
  const heap = fullGcs.mainIsolate();
  const averageResultChars = checks.averageAnswerBytes();
  return {
    rows: [
      {
        section: 6,
        measurement: `service RSS after ${run.done} distinct checks (fresh process: ${atStart.rssMiB} MiB at start)`,
        value: after.rssMiB,
        unit: 'MiB',
        reference: { label: 'start + bounds', value: limitMiB },
        ratio: ratioOf(after.rssMiB, limitMiB),
        target: '≤ start + cache bounds',
        met: after.rssMiB <= limitMiB && run.done === memoryChecks,
        note: `bounds: DNS cache ${bounds.dnsCacheEntries} entries (1 KiB each assumed), store ${bounds.storeMaxValueChars} chars, card cache ${bounds.cardCacheBytes} bytes; results held ≈ ${run.done} × ${averageResultChars} chars`,
      },
      {
        section: 6,
        measurement: `SQLite store file after ${run.done} checks (results, result cache, counters; WAL included)`,
        value: fileAfterChecks,
        unit: 'MiB',
      },
      {
        section: 6,
        measurement: `SQLite store file once the result cache's 600 s have passed (sweep: ${cacheSwept.deleted} rows in ${cacheSwept.sweepMs} ms)`,
        value: cacheSwept.mib,
        unit: 'MiB',
        reference: { label: 'after the checks', value: fileAfterChecks },
      },
      {
        section: 6,
        measurement: `SQLite store file once every TTL has passed (sweep: ${swept.deleted} rows in ${swept.sweepMs} ms)`,
        value: swept.mib,
        unit: 'MiB',
        reference: { label: 'after the checks', value: fileAfterChecks },
      },
      {
        section: 6,
        measurement: `V8 live heap after the last full GC (${heap?.fullGcs ?? 0} full GCs, max ${heap?.max ?? '?'} MB)`,
        value: heap?.last ?? Number.NaN,
        unit: 'MB',
      },
    ],
    details: {
      atStart,
      after,
      checks: run.done,
      failed: run.failed,
      cappedByTime: run.cappedByTime,
      rate: run.rate,
      bounds,
      allowanceMiB,
      sqliteFile: {
        afterChecksMiB: fileAfterChecks,
        afterResultCache: cacheSwept,
        afterAll: swept,
      },
      heapAfterFullGcMB: heap,
      averageResultChars,
      storedResultsMiB: round((run.done * averageResultChars) / 2 ** 20),
    },
  };
}
