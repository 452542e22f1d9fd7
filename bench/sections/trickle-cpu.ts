import { loadavg } from 'node:os';
import { join } from 'node:path';
import { reversedOctets } from '../../src/lib/index.js';
import { createIpChecks } from '../ip-checks.js';
import { processRunMs } from '../process-cpu.js';
import { startBareCheckChild } from '../reference/bare-check-child.js';
import { cpuTargets, type Row } from '../report.js';
import { startService, waitForCardThreads } from '../service.js';
import { percentile, round } from '../stats.js';
import { startTrickleForwarder } from '../trickle-forwarder.js';
import { tricklePlan } from '../trickle-plan.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 14. Answers that trickle (docs/benchmarks.md): the CPU of an uncached IP check when its answers
 * come back one by one, as a real resolver sends them, beside a bare client asking the same
 * questions through the same resolver in the same run. A forwarder in front of the fixture DNS
 * (fixtures/delaying-forwarder.ts, in a worker thread) holds each answer by its zone's distance,
 * 1 to 40 ms, plus up to 3 ms of jitter (bench/trickle-plan.ts). The service (memory store, the
 * whole catalogue) runs in its own process, warmed by BENCH_TRICKLE_WARMUP checks (3,000) 24 at a
 * time; the bare client (bench/reference/bare-check.ts, every answer decoded with dns-packet) in a
 * process of its own, warmed by 1,000. Each round checks its own fresh addresses one at a time,
 * then 24 at a time, through the bare client and the service in an order that turns each round;
 * each side's CPU is its process's, every thread, from /proc's schedstat (to the nanosecond).
 * The rows give the median round and the median of the rounds' ratios.
 */

type Mode = 'sequential' | 'loaded';

/** `<reversed test entry>.<zone>` of each IP list that documents a positive one (RFC 5782 §5). */
function testEntryNames(context: BenchContext): string[] {
  return context.world.ipZones.flatMap((zone) => {
    const listed = zone.selfTest?.listed === undefined ? '127.0.0.2' : zone.selfTest.listed;
    return listed === null ? [] : [`${reversedOctets(listed)}.${zone.zone}`];
  });
}

export async function measureTrickleCpu(context: BenchContext): Promise<SectionResult> {
  const { settings, world, dns, http, progress, serviceLaunch } = context;
  const concurrency = settings.cpuLoadedConcurrency;
  await dns.setLatency(0);
  const plan = tricklePlan(world.ipZoneNames);
  const forwarder = await startTrickleForwarder({ upstream: dns.address, plan });
  const bare = await startBareCheckChild(
    forwarder.address,
    world.ipZoneNames,
    testEntryNames(context),
  );
  const { cpuProfileDir } = serviceLaunch;
  const service = await startService({
    dnsServer: forwarder.address,
    env: { ...serviceLaunch.env, STORE_URL: 'memory:' },
    nodeFlags: serviceLaunch.nodeFlags,
    ...(cpuProfileDir ? { cpuProfileDir: join(cpuProfileDir, 'trickle') } : {}),
  });
  const questions = world.ipZoneNames.length + 3;
  const loadBefore = loadavg().map((value) => round(value, 1));
  try {
    const [first, ...warmup] = world.sets.trickleWarmup;
    progress(
      `14. answers that trickle: warming the service (${warmup.length} checks) and the bare client`,
    );
    await waitForCardThreads(service, first!);
    const warm = await createIpChecks(http, service.base, concurrency).checkAll(warmup, 600_000);
    await bare.run(warmup.slice(0, settings.trickleBareWarmupChecks), concurrency);

    const sides = {
      bare: {
        pid: bare.pid,
        run: (addresses: readonly string[], inFlight: number) => bare.run(addresses, inFlight),
      },
      service: {
        pid: service.pid,
        run: (addresses: readonly string[], inFlight: number) =>
          createIpChecks(http, service.base, inFlight).checkAll(addresses, 600_000),
      },
    };
    const perCheck: Record<Mode, Record<'bare' | 'service', number[]>> = {
      sequential: { bare: [], service: [] },
      loaded: { bare: [], service: [] },
    };
    const failures: string[] = [];
    for (const [index, round_] of world.sets.trickle.entries()) {
      for (const mode of ['sequential', 'loaded'] as const) {
        const inFlight = mode === 'sequential' ? 1 : concurrency;
        const order =
          index % 2 === 0 ? (['bare', 'service'] as const) : (['service', 'bare'] as const);
        for (const name of order) {
          const side = sides[name];
          const before = await processRunMs(side.pid);
          const run = await side.run(round_[mode], inFlight);
          const cpuMs = (await processRunMs(side.pid)) - before;
          if (run.failed > 0) failures.push(`${name} ${mode} round ${index + 1}: ${run.failed}`);
          perCheck[mode][name].push(cpuMs / Math.max(1, run.done));
        }
      }
      progress(`14. round ${index + 1} of ${world.sets.trickle.length} done`);
    }
    const load = [loadBefore, loadavg().map((value) => round(value, 1))];

    const summary = (mode: Mode) => {
      const { bare: bareMs, service: serviceMs } = perCheck[mode];
      const ratios = serviceMs.map((ms, index) => ms / bareMs[index]!);
      return {
        serviceMs: round(percentile(serviceMs, 50), 3),
        bareMs: round(percentile(bareMs, 50), 3),
        ratio: round(percentile(ratios, 50), 2),
        rounds: serviceMs.map((ms, index) => ({
          serviceMs: round(ms, 3),
          bareMs: round(bareMs[index]!, 3),
          ratio: round(ratios[index]!, 2),
        })),
      };
    };
    const sequential = summary('sequential');
    const loaded = summary('loaded');
    const rows = (
      [
        ['one at a time', sequential],
        [`${concurrency} at a time`, loaded],
      ] as const
    ).flatMap(([label, figures]): Row[] => [
      {
        section: 14,
        measurement: `service CPU per uncached IP check, answers trickling (1-40 ms a zone), ${label}, all ${world.ipZoneNames.length} IP lists, memory store (median of ${figures.rounds.length} rounds, ${questions} questions: ${round((figures.serviceMs * 1000) / questions)} µs an answer; rounds' ratios ${figures.rounds.map((entry) => entry.ratio).join(', ')}; after ${warm.done} checks; load average ${load.map((entry) => entry.join(' ')).join(' → ')})`,
        value: figures.serviceMs,
        unit: 'ms',
        reference: { label: 'bare node:dgram + dns-packet', value: figures.bareMs },
        ratio: figures.ratio,
        target: `≤ ${cpuTargets.trickleOverBare} × bare`,
        met: figures.ratio <= cpuTargets.trickleOverBare && failures.length === 0,
        ...(failures.length > 0 ? { note: `checks failed: ${failures.join('; ')}` } : {}),
      },
      {
        section: 14,
        measurement: `bare node:dgram client, the same ${questions} questions through the same forwarder, each answer decoded with dns-packet, ${label}: CPU per check of its process (${round((figures.bareMs * 1000) / questions)} µs an answer)`,
        value: figures.bareMs,
        unit: 'ms',
      },
    ]);
    return {
      rows,
      details: { plan, questions, warmup: warm, loadAverage: load, sequential, loaded, failures },
    };
  } finally {
    await service.stop();
    bare.stop();
    await forwarder.close();
  }
}
