import { readFile, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDgramCeiling } from '../reference/dgram-ceiling.js';
import { createIpChecks } from '../ip-checks.js';
import { threadCpuMs } from '../process-cpu.js';
import { cpuTargets, type Row } from '../report.js';
import { type RunningService, startService, waitForCardThreads } from '../service.js';
import { round, runPool } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 2. The service's CPU per uncached IP check (docs/benchmarks.md#cpu-per-check): user + system time
 * of the service process, read from its own counters (/proc, bench/process-cpu.ts) around the
 * measured checks, on a fresh service with the memory store, no injected DNS latency. Two services,
 * one per row, so that one row's heap and caches do not carry into the other: 300 checks one at a
 * time, then 1,200 checks 24 at a time. Each first draws a card (its card threads' warm-up CPU is
 * then spent) and runs BENCH_CPU_WARMUP checks (4,000) 24 at a time that are not counted but
 * reported: V8 has optimised the check's code only after a few thousand checks (docs/benchmarks.md,
 * "Warm-up"). With BENCH_CPU_PROF_DIR each service writes its V8 profile to a subdirectory of its
 * own (`cpu-sequential`, `cpu-loaded`) for `npx tsx bench/experiments/profile-summary.ts`.
 *
 * The target rows run with the first 18 IP lists of the catalogue (DNSBL_ZONES_FILE), the list
 * count the CPU targets were set at; a third row runs the whole catalogue 24 at a time, for
 * the figure a default deployment sees.
 */

/** The IP list count the CPU targets are set at (docs/benchmarks.md#cpu-per-check). */
const targetListCount = 18;

/**
 * A zone file of the bundled catalogue with only the first `count` IP lists the bench asks (the
 * domain lists stay: an IP check does not ask them).
 */
export async function writeZoneFile(
  askedIpZones: readonly string[],
  count: number,
): Promise<string> {
  const bundled = JSON.parse(
    await readFile(new URL('../../assets/dnsbl-zones.json', import.meta.url), 'utf8'),
  ) as { zone: string; type: string }[];
  const kept = new Set(askedIpZones.slice(0, count));
  const file = join(tmpdir(), `bench-zones-${count}-${process.pid}.json`);
  await writeFile(
    file,
    JSON.stringify(bundled.filter((zone) => zone.type !== 'ip' || kept.has(zone.zone))),
  );
  return file;
}
export async function measureCheckCpu(context: BenchContext): Promise<SectionResult> {
  const { settings, world, dns, progress } = context;
  const { cpuLoadedConcurrency } = settings;
  const { cpuWarmup, cpuSequential, cpuLoaded, cpuCatalogue } = world.sets;
  await dns.setLatency(0);
  const load = loadavg().map((value) => round(value, 1));

  const targetZonesFile = await writeZoneFile(world.ipZoneNames, targetListCount);

  const measure = (
    name: 'sequential' | 'loaded' | 'catalogue',
    warmup: readonly string[],
    addresses: readonly string[],
    concurrency: number,
  ) => {
    progress(`2. CPU per check, ${name}: a fresh memory-store service, ${addresses.length} checks`);
    return measureFreshServiceCpu(context, {
      env: name === 'catalogue' ? {} : { DNSBL_ZONES_FILE: targetZonesFile },
      profileName: `cpu-${name}`,
      warmup,
      addresses,
      concurrency,
    });
  };

  /**
   * The reference: the same questions (the 18 lists, PTR, then the name's A) asked by the bare
   * `node:dgram` client of section 2's ceiling, 24 at a time, its CPU read from the bench's main
   * thread. What the datagrams alone cost on this machine, which no service asking them can beat.
   */
  async function measureBare(addresses: readonly string[]) {
    progress(`2. CPU per check, bare node:dgram fan-out: ${addresses.length} checks`);
    const ceiling = await openDgramCeiling(
      dns.address,
      world.ipZoneNames.slice(0, targetListCount),
    );
    try {
      const cpuBefore = await threadCpuMs(process.pid);
      const run = await runPool(addresses, cpuLoadedConcurrency, 60_000, async (address) => {
        await ceiling.check(address);
        return true;
      });
      const cpuMs = (await threadCpuMs(process.pid)) - cpuBefore;
      return { ...run, cpuPerCheckMs: round(cpuMs / Math.max(1, run.done), 2) };
    } finally {
      ceiling.close();
    }
  }

  const bare = await measureBare(cpuLoaded);
  const sequential = await measure('sequential', cpuWarmup[0]!, cpuSequential, 1);
  const loaded = await measure('loaded', cpuWarmup[1]!, cpuLoaded, cpuLoadedConcurrency);
  const catalogue = await measure('catalogue', cpuWarmup[2]!, cpuCatalogue, cpuLoadedConcurrency);
  const row = (
    run: typeof sequential,
    label: string,
    targetMs: number | undefined,
    expected: number,
  ): Row => ({
    section: 2,
    measurement: `service CPU per uncached IP check, ${label}, memory store (user + system, n=${run.done}, ${run.rate} checks/s, after ${run.warmup.checks} checks ${cpuLoadedConcurrency} at a time that cost ${run.warmup.cpuPerCheckMs} ms each; load average ${load.join(' ')})`,
    value: run.cpuPerCheckMs,
    unit: 'ms',
    ...(targetMs === undefined
      ? {}
      : { target: `≤ ${targetMs}`, met: run.cpuPerCheckMs <= targetMs && run.done === expected }),
    reference: { label: 'bare node:dgram', value: bare.cpuPerCheckMs },
    ratio: round(run.cpuPerCheckMs / Math.max(0.01, bare.cpuPerCheckMs), 2),
    ...(run.failed > 0 ? { note: `${run.failed} checks failed or incomplete` } : {}),
  });
  const lists = `${targetListCount} IP lists`;
  const allLists = `all ${world.ipZoneNames.length} IP lists`;
  return {
    rows: [
      row(
        sequential,
        `${lists}, one at a time`,
        cpuTargets.cpuPerCheckSequentialMs,
        cpuSequential.length,
      ),
      row(
        loaded,
        `${lists}, ${cpuLoadedConcurrency} at a time`,
        cpuTargets.cpuPerCheckLoadedMs,
        cpuLoaded.length,
      ),
      row(
        catalogue,
        `${allLists}, ${cpuLoadedConcurrency} at a time`,
        undefined,
        cpuCatalogue.length,
      ),
      {
        section: 2,
        measurement: `bare node:dgram fan-out of one check's questions (${lists}, PTR, A), ${cpuLoadedConcurrency} at a time: CPU per check of the bench's main thread (n=${bare.done})`,
        value: bare.cpuPerCheckMs,
        unit: 'ms',
      },
    ],
    details: { loadAverage: load, bare, sequential, loaded, catalogue },
  };
}

/**
 * The CPU of uncached IP checks on a fresh memory-store service (`env` added to the bench's):
 * a first check and its card (the card threads' warm-up CPU is then spent), the `warmup`
 * addresses 24 at a time, uncounted but reported (V8 optimises the check's code only after a few
 * thousand checks, and a service that has run a while runs that code), then `addresses`,
 * `concurrency` at a time: the service process's user + system time per check. With
 * BENCH_CPU_PROF_DIR the service writes its V8 profile to `<dir>/<profileName>`.
 */
export async function measureFreshServiceCpu(
  { settings, dns, http, serviceLaunch }: BenchContext,
  options: {
    env: Record<string, string>;
    profileName: string;
    warmup: readonly string[];
    addresses: readonly string[];
    concurrency: number;
  },
) {
  const { cpuProfileDir } = serviceLaunch;
  const service: RunningService = await startService({
    dnsServer: dns.address,
    env: { ...serviceLaunch.env, STORE_URL: 'memory:', ...options.env },
    nodeFlags: serviceLaunch.nodeFlags,
    ...(cpuProfileDir ? { cpuProfileDir: join(cpuProfileDir, options.profileName) } : {}),
  });
  try {
    await waitForCardThreads(service, options.warmup[0]!);
    const warmupChecks = createIpChecks(http, service.base, settings.cpuLoadedConcurrency);
    const warmupCpuBefore = await service.cpuMs();
    const warm = await warmupChecks.checkAll(options.warmup.slice(1), 120_000);
    const warmupCpuMs = (await service.cpuMs()) - warmupCpuBefore;
    const checks = createIpChecks(http, service.base, options.concurrency);
    const cpuBefore = await service.cpuMs();
    const run = await checks.checkAll(options.addresses, 120_000);
    const cpuMs = (await service.cpuMs()) - cpuBefore;
    return {
      ...run,
      cpuMs,
      cpuPerCheckMs: round(cpuMs / Math.max(1, run.done), 2),
      warmup: {
        checks: warm.done,
        cpuPerCheckMs: round(warmupCpuMs / Math.max(1, warm.done), 2),
      },
    };
  } finally {
    await service.stop();
  }
}
