import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type CpuSide, cpuInTurns, medianBeside } from '../cpu-in-turns.js';
import { createHttpClient } from '../http.js';
import { createIpChecks } from '../ip-checks.js';
import { startService } from '../service.js';
import { round } from '../stats.js';
import { startTrickle } from '../trickle.js';
import { type BareAnswer, answerOf } from '../reference/bare-http.js';
import { parseVariants } from './variants.js';
import { startExperimentWorld } from './experiment-world.js';

/**
 * Section 14's measurement (answers that trickle, beside the bare client) for several service
 * variants side by side (an experiment, not `npm run bench`):
 *
 *   TRICKLE_VARIANTS='base=dist-base/server.js;new=dist/server.js' \
 *     npx tsx bench/experiments/trickle-ab.ts
 *
 * Variants as in ab-cpu.ts (`name=entry[|node flags][|ENV=value,...]`), each a fresh memory-store
 * service over the same trickling forwarder, warmed by TRICKLE_WARMUP checks (3,000) 24 at a
 * time; then TRICKLE_ROUNDS rounds (5) of TRICKLE_SEQUENTIAL checks (150) one at a time and
 * TRICKLE_LOADED (600) 24 at a time, every variant and the bare client in an order that turns each
 * round. Prints each side's median round and its median ratio to the bare client.
 * TRICKLE_PROF_DIR=<dir>: each variant writes its V8 profile to `<dir>/<name>`, the bare client
 * to `<dir>/trickle-bare`. TRICKLE_BARE_HTTP=1 adds a side `bare-http`: the bare client behind a
 * bare node:http server (bench/reference/bare-check-http-server.ts), checked through HTTP as the
 * services are, the least any service answering the check over HTTP spends.
 */

const variants = parseVariants(process.env.TRICKLE_VARIANTS ?? 'main=dist/server.js');
const rounds = Number(process.env.TRICKLE_ROUNDS ?? 5);
const warmupChecks = Number(process.env.TRICKLE_WARMUP ?? 3000);
const sequentialChecks = Number(process.env.TRICKLE_SEQUENTIAL ?? 150);
const loadedChecks = Number(process.env.TRICKLE_LOADED ?? 600);
const profileDir = process.env.TRICKLE_PROF_DIR;
const withBareHttp = process.env.TRICKLE_BARE_HTTP === '1';
const concurrency = 24;

const perVariant = warmupChecks + rounds * (sequentialChecks + loadedChecks);
/** Checks that warm each bare side up: the bare client, and the bare HTTP server when asked for. */
const bareWarmup = 1000;
const bareSides = withBareHttp ? 2 : 1;
const { world, dns } = await startExperimentWorld(
  perVariant * variants.length + bareSides * bareWarmup + 100,
);
const trickle = await startTrickle(dns.address, world, profileDir);
const http = createHttpClient(concurrency);
const addresses = [...world.sets.memory];
const take = (count: number) => addresses.splice(0, count);

const services: { side: CpuSide; stop(): Promise<void>; own: string[] }[] = [];
let bareAnswer: BareAnswer | undefined;
try {
  for (const variant of variants) {
    const service = await startService({
      dnsServer: trickle.address,
      entry: variant.entry,
      nodeFlags: [
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, variant.name)}`] : []),
        ...variant.flags,
      ],
      env: { STORE_URL: 'memory:', ...variant.env },
    });
    const own = take(perVariant);
    const warmList = own.splice(0, warmupChecks);
    const warm = await createIpChecks(http, service.base, concurrency).checkAll(warmList, 600_000);
    // The first variant's own answer about an address it checked, for the bare HTTP server.
    if (withBareHttp && bareAnswer === undefined) {
      bareAnswer = await answerOf(`${service.base}/ip/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ target: warmList[0] }),
      });
    }
    // The monotonic clock in µs, as a V8 profile's timestamps: the profile's samples after it are the rounds'.
    console.error(
      `${variant.name}: warmed by ${warm.done} checks (${warm.failed} failed) at ${process.hrtime.bigint() / 1000n} µs`,
    );
    services.push({
      own,
      stop: () => service.stop(),
      side: {
        name: variant.name,
        pid: service.pid,
        run: (list, inFlight) =>
          createIpChecks(http, service.base, inFlight).checkAll(list, 600_000),
      },
    });
  }
  if (withBareHttp) {
    const bareHttp = await trickle.startBareCheckHttp(bareAnswer!);
    // The bare client keeps no cache: it asks about the first variant's addresses, as `bare` does.
    services.push({
      own: services[0]!.own,
      stop: () => bareHttp.stop(),
      side: {
        name: 'bare-http',
        pid: bareHttp.pid,
        run: (list, inFlight) =>
          createIpChecks(http, bareHttp.base, inFlight).checkAll(list, 600_000),
      },
    });
    await services.at(-1)!.side.run(take(bareWarmup), concurrency);
  }
  await trickle.bare.run(take(bareWarmup), concurrency);
  const load = loadavg().map((value) => round(value, 1));
  const turns = await cpuInTurns({
    sides: [trickle.bare, ...services.map((entry) => entry.side)],
    rounds,
    concurrency,
    addresses: (side, index, mode) => {
      // The bare client asks about the first variant's addresses (it keeps no cache).
      const own = (services.find((entry) => entry.side === side) ?? services[0]!).own;
      const start = index * (sequentialChecks + loadedChecks);
      return mode === 'sequential'
        ? own.slice(start, start + sequentialChecks)
        : own.slice(start + sequentialChecks, start + sequentialChecks + loadedChecks);
    },
    onRound: (index) => console.error(`round ${index + 1} of ${rounds} done`),
  });
  console.log(
    `load average ${load.join(' ')} → ${loadavg()
      .map((value) => round(value, 1))
      .join(' ')}; ${trickle.questions} questions a check`,
  );
  for (const mode of ['sequential', 'loaded'] as const) {
    const bare = medianBeside(turns, mode, 'bare', 'bare');
    console.log(`${mode}: bare ${bare.ms} ms (rounds ${bare.rounds.join(' ')})`);
    for (const { side } of services) {
      const figures = medianBeside(turns, mode, side.name, 'bare');
      console.log(
        `  ${side.name.padEnd(10)} ${figures.ms} ms, ${figures.ratio}× bare (rounds ${figures.rounds.join(' ')}; ratios ${figures.ratios.join(' ')})`,
      );
      const main = medianBeside(turns, mode, side.name, 'bare', 'main');
      console.log(
        `  ${''.padEnd(10)} main thread ${main.ms} ms against ${main.referenceMs}, ${main.ratio}× (rounds ${main.rounds.join(' ')}; ratios ${main.ratios.join(' ')})`,
      );
    }
  }
  if (turns.failures.length > 0) console.log(`failed checks: ${turns.failures.join('; ')}`);
} finally {
  for (const entry of services) await entry.stop();
  await trickle.close();
  await dns.close();
  http.close();
}
