import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type CpuSide, cpuInTurns, medianBeside } from '../cpu-in-turns.js';
import { createIpChecks } from '../ip-checks.js';
import { cpuTargets, type Row } from '../report.js';
import { startService, waitForCardThreads } from '../service.js';
import { round } from '../stats.js';
import { answerOf } from '../reference/bare-http.js';
import type { ListeningChild } from '../reference/listening.js';
import { startTrickle } from '../trickle.js';
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
 * each side's CPU is its process's, every thread, from /proc's schedstat (bench/cpu-in-turns.ts).
 * A third side, `bare-http`, is the same bare client behind a bare node:http server
 * (bench/reference/bare-check-http-server.ts), checked through HTTP as the service is: what any
 * service answering the check over HTTP spends, so the rows show how much of the goal's margin
 * over the bare client HTTP alone takes. The rows give the median round and the median of the
 * rounds' ratios. With BENCH_CPU_PROF_DIR the service writes its V8 profile to `<dir>/trickle`
 * and the bare client to `<dir>/trickle-bare`.
 */
export async function measureTrickleCpu(context: BenchContext): Promise<SectionResult> {
  const { settings, world, dns, http, progress, serviceLaunch } = context;
  const concurrency = settings.cpuLoadedConcurrency;
  const { cpuProfileDir } = serviceLaunch;
  await dns.setLatency(0);
  const trickle = await startTrickle(dns.address, world, cpuProfileDir);
  const service = await startService({
    dnsServer: trickle.address,
    env: { ...serviceLaunch.env, STORE_URL: 'memory:' },
    nodeFlags: serviceLaunch.nodeFlags,
    ...(cpuProfileDir ? { cpuProfileDir: join(cpuProfileDir, 'trickle') } : {}),
  });
  const { questions } = trickle;
  let bareHttp: ListeningChild | undefined;
  const loadBefore = loadavg().map((value) => round(value, 1));
  try {
    const [first, ...warmup] = world.sets.trickleWarmup;
    progress(
      `14. answers that trickle: warming the service (${warmup.length} checks) and the bare client`,
    );
    await waitForCardThreads(service, first!);
    // The service's own answer about `first`, which the bare HTTP server repeats made afresh.
    bareHttp = await trickle.startBareCheckHttp(
      await answerOf(`${service.base}/ip/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ target: first }),
      }),
    );
    const { pid: bareHttpPid, base: bareHttpBase } = bareHttp;
    const warm = await createIpChecks(http, service.base, concurrency).checkAll(warmup, 600_000);
    await trickle.bare.run(warmup.slice(0, settings.trickleBareWarmupChecks), concurrency);
    const bareHttpSide: CpuSide = {
      name: 'bare-http',
      pid: bareHttpPid,
      run: (addresses, inFlight) =>
        createIpChecks(http, bareHttpBase, inFlight).checkAll(addresses, 600_000),
    };
    await bareHttpSide.run(warmup.slice(0, settings.trickleBareWarmupChecks), concurrency);

    const serviceSide: CpuSide = {
      name: 'service',
      pid: service.pid,
      run: (addresses, inFlight) =>
        createIpChecks(http, service.base, inFlight).checkAll(addresses, 600_000),
    };
    // The bare client keeps no cache: it asks the service's questions about the same addresses.
    const turns = await cpuInTurns({
      sides: [trickle.bare, bareHttpSide, serviceSide],
      rounds: world.sets.trickle.length,
      concurrency,
      addresses: (_, index, mode) => world.sets.trickle[index]![mode],
      onRound: (index) => progress(`14. round ${index + 1} of ${world.sets.trickle.length} done`),
    });
    const load = [loadBefore, loadavg().map((value) => round(value, 1))];
    const sequential = medianBeside(turns, 'sequential', 'service', 'bare');
    const loaded = medianBeside(turns, 'loaded', 'service', 'bare');
    const overHttp = {
      sequential: medianBeside(turns, 'sequential', 'bare-http', 'bare'),
      loaded: medianBeside(turns, 'loaded', 'bare-http', 'bare'),
    };
    const mainThreads = {
      sequential: medianBeside(turns, 'sequential', 'service', 'bare', 'main'),
      loaded: medianBeside(turns, 'loaded', 'service', 'bare', 'main'),
    };
    const perAnswer = (ms: number) => round((ms * 1000) / questions);
    const rows = (
      [
        ['one at a time', sequential, mainThreads.sequential, overHttp.sequential],
        [`${concurrency} at a time`, loaded, mainThreads.loaded, overHttp.loaded],
      ] as const
    ).flatMap(([label, figures, main, bareHttpFigures]): Row[] => [
      {
        section: 14,
        measurement: `service CPU per uncached IP check, answers trickling (1-40 ms a zone), ${label}, all ${world.ipZoneNames.length} IP lists, memory store (median of ${figures.rounds.length} rounds, ${questions} questions: ${perAnswer(figures.ms)} µs an answer; rounds' ratios ${figures.ratios.join(', ')}; after ${warm.done} checks; load average ${load.map((entry) => entry.join(' ')).join(' → ')})`,
        value: figures.ms,
        unit: 'ms',
        reference: { label: 'bare node:dgram + dns-packet', value: figures.referenceMs },
        ratio: figures.ratio,
        target: `≤ ${cpuTargets.trickleOverBare} × bare`,
        met: figures.ratio <= cpuTargets.trickleOverBare && turns.failures.length === 0,
        ...(turns.failures.length > 0
          ? { note: `checks failed: ${turns.failures.join('; ')}` }
          : {}),
      },
      {
        section: 14,
        measurement: `bare node:dgram client, the same ${questions} questions through the same forwarder, each answer decoded with dns-packet, ${label}: CPU per check of its process (${perAnswer(figures.referenceMs)} µs an answer)`,
        value: figures.referenceMs,
        unit: 'ms',
      },
      {
        section: 14,
        measurement: `the bare client behind a bare node:http server, checked through HTTP as the service, ${label}: CPU per check of its process, the least any service answering the check over HTTP spends (${perAnswer(bareHttpFigures.ms)} µs an answer; rounds' ratios ${bareHttpFigures.ratios.join(', ')})`,
        value: bareHttpFigures.ms,
        unit: 'ms',
        reference: { label: 'bare node:dgram + dns-packet', value: bareHttpFigures.referenceMs },
        ratio: bareHttpFigures.ratio,
      },
      {
        section: 14,
        measurement: `service CPU per check, main thread alone (without V8's collector and compiler threads), beside the bare client's main thread, ${label} (rounds' ratios ${main.ratios.join(', ')})`,
        value: main.ms,
        unit: 'ms',
        reference: { label: 'bare client main thread', value: main.referenceMs },
        ratio: main.ratio,
      },
    ]);
    return {
      rows,
      details: {
        plan: trickle.plan,
        questions,
        warmup: warm,
        loadAverage: load,
        sequential,
        loaded,
        overHttp,
        mainThreads,
        failures: turns.failures,
      },
    };
  } finally {
    try {
      await service.stop();
    } finally {
      await bareHttp?.stop();
      await trickle.close();
    }
  }
}
