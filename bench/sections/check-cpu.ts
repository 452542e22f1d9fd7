import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createIpChecks } from '../ip-checks.js';
import { cpuTargets, type Row } from '../report.js';
import { type RunningService, startService, waitForCardThreads } from '../service.js';
import { round } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 2. The service's CPU per uncached IP check (issue 26): user + system time of the service
 * process, read from its own counters (/proc, bench/process-cpu.ts) around the measured checks,
 * on a fresh service with the memory store, no injected DNS latency. Two services, one per row, so
 * that one row's heap and caches do not carry into the other: 300 checks one at a time, then 1,200
 * checks 24 at a time. Each first draws a card (its card threads' warm-up CPU is then spent) and
 * runs 100 checks that are not counted (connections, JIT). With BENCH_CPU_PROF_DIR each service
 * writes its V8 profile to a subdirectory of its own (`cpu-sequential`, `cpu-loaded`) for
 * `npx tsx bench/profile-summary.ts`.
 */
export async function measureCheckCpu({
  settings,
  world,
  dns,
  http,
  serviceLaunch,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { cpuLoadedConcurrency } = settings;
  const { cpuWarmup, cpuSequential, cpuLoaded } = world.sets;
  await dns.setLatency(0);
  const load = loadavg().map((value) => round(value, 1));

  async function measure(
    name: 'sequential' | 'loaded',
    warmup: readonly string[],
    addresses: readonly string[],
    concurrency: number,
  ) {
    progress(`2. CPU per check, ${name}: a fresh memory-store service, ${addresses.length} checks`);
    const { cpuProfileDir } = serviceLaunch;
    const service: RunningService = await startService({
      dnsServer: dns.address,
      env: { ...serviceLaunch.env, STORE_URL: 'memory:' },
      nodeFlags: serviceLaunch.nodeFlags,
      ...(cpuProfileDir ? { cpuProfileDir: join(cpuProfileDir, `cpu-${name}`) } : {}),
    });
    try {
      const checks = createIpChecks(http, service.base, concurrency);
      await waitForCardThreads(service, warmup[0]!);
      await checks.checkAll(warmup.slice(1), 30_000);
      const cpuBefore = await service.cpuMs();
      const run = await checks.checkAll(addresses, 120_000);
      const cpuMs = (await service.cpuMs()) - cpuBefore;
      return { ...run, cpuMs, cpuPerCheckMs: round(cpuMs / Math.max(1, run.done), 2) };
    } finally {
      await service.stop();
    }
  }

  const sequential = await measure('sequential', cpuWarmup[0]!, cpuSequential, 1);
  const loaded = await measure('loaded', cpuWarmup[1]!, cpuLoaded, cpuLoadedConcurrency);
  const row = (run: typeof sequential, label: string, targetMs: number, expected: number): Row => ({
    section: 2,
    measurement: `service CPU per uncached IP check, ${label}, memory store (user + system, n=${run.done}, ${run.rate} checks/s; load average ${load.join(' ')})`,
    value: run.cpuPerCheckMs,
    unit: 'ms',
    target: `≤ ${targetMs}`,
    met: run.cpuPerCheckMs <= targetMs && run.done === expected,
    ...(run.failed > 0 ? { note: `${run.failed} checks failed or incomplete` } : {}),
  });
  return {
    rows: [
      row(sequential, 'one at a time', cpuTargets.cpuPerCheckSequentialMs, cpuSequential.length),
      row(
        loaded,
        `${cpuLoadedConcurrency} at a time`,
        cpuTargets.cpuPerCheckLoadedMs,
        cpuLoaded.length,
      ),
    ],
    details: { loadAverage: load, sequential, loaded },
  };
}
