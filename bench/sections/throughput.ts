import { openDgramCeiling } from '../reference/dgram-ceiling.js';
import { cpuTargets, ratioOf } from '../report.js';
import { round, runPool } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 2. Throughput of uncached checks at concurrency 32, no injected latency, beside the ceiling: the
 * same checks' queries fanned out over bare `node:dgram` sockets at the same concurrency
 * (dgram-ceiling.ts), measured just before the service in each round. The service asks
 * the same questions through the same sockets API and does more, so service ÷ ceiling is at most 1
 * (up to the machine's noise between the two runs).
 */
export async function measureThroughput({
  settings,
  world,
  dns,
  service,
  checks,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { concurrency, throughputRounds, throughputPerRound } = settings;
  const { sets } = world;
  progress(
    `2. throughput: ${throughputRounds} rounds of ${throughputPerRound} checks, ceiling then service`,
  );
  await dns.setLatency(0);
  await checks.checkAll(sets.throughputWarmup, 30_000);
  let ceilingDone = 0;
  let ceilingMs = 0;
  let serviceDone = 0;
  let serviceMs = 0;
  let failed = 0;
  let serviceCpuMs = 0;
  const reference = await openDgramCeiling(dns.address, world.ipZoneNames);
  for (const addresses of sets.throughput) {
    const ceiling = await runPool(addresses, concurrency, 30_000, async (address) => {
      await reference.check(address);
      return true;
    });
    ceilingDone += ceiling.done;
    ceilingMs += ceiling.ms;
    const cpuBefore = await service.cpuMs();
    const run = await checks.checkAll(addresses, 30_000);
    serviceCpuMs += (await service.cpuMs()) - cpuBefore;
    serviceDone += run.done;
    serviceMs += run.ms;
    failed += run.failed;
  }
  reference.close();
  const ceilingRate = round((ceilingDone / ceilingMs) * 1000);
  const serviceRate = round((serviceDone / serviceMs) * 1000);
  const cpuPerCheckMs = round(serviceCpuMs / Math.max(1, serviceDone), 2);
  return {
    rows: [
      {
        section: 2,
        measurement: `uncached checks/s, concurrency ${concurrency}, SQLite store (n=${serviceDone}; service CPU ${cpuPerCheckMs} ms/check)`,
        value: serviceRate,
        unit: '/s',
        reference: { label: 'dgram ceiling', value: ceilingRate },
        ratio: ratioOf(serviceRate, ceilingRate),
        target: `≥ ${cpuTargets.throughputOfCeiling} × ceiling`,
        met: serviceRate >= cpuTargets.throughputOfCeiling * ceilingRate && failed === 0,
        ...(failed > 0 ? { note: `${failed} checks failed or incomplete` } : {}),
      },
    ],
    details: {
      ceilingDone,
      ceilingMs,
      serviceDone,
      serviceMs,
      failed,
      serviceCpuMs,
      cpuPerCheckMs,
    },
  };
}
