import { readFileSync } from 'node:fs';

/** Small measurement helpers: percentiles, timing, and a bounded pool of concurrent workers. */

/**
 * CPU time (user + system) of this process's main thread alone, in ms: the fixture DNS server's
 * worker thread is not counted. /proc/self/task/<pid>/stat, fields 14 and 15, in 1/100 s.
 */
export function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export interface Distribution {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export function distribution(samples: readonly number[]): Distribution {
  return {
    n: samples.length,
    p50: round(percentile(samples, 50)),
    p95: round(percentile(samples, 95)),
    max: round(Math.max(...samples)),
  };
}

export function round(value: number, digits = 1): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export interface PoolRun {
  done: number;
  failed: number;
  ms: number;
  /** Completed items per second. */
  rate: number;
  /** True when the time cap stopped the run before every item was done. */
  cappedByTime: boolean;
}

/**
 * Runs `work` over `items` with `concurrency` in flight, never past `maxMs` (items not started by
 * then are skipped): bounded in count and in time.
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  maxMs: number,
  work: (item: T) => Promise<boolean>,
): Promise<PoolRun> {
  const started = performance.now();
  let next = 0;
  let done = 0;
  let failed = 0;
  let cappedByTime = false;
  async function worker(): Promise<void> {
    while (next < items.length) {
      if (performance.now() - started > maxMs) {
        cappedByTime = true;
        return;
      }
      const item = items[next++]!;
      const ok = await work(item).catch(() => false);
      if (ok) done++;
      else failed++;
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  const ms = performance.now() - started;
  return { done, failed, ms: round(ms), rate: round((done / ms) * 1000), cappedByTime };
}
