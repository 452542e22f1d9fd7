import { createHttpClient } from '../http.js';
import { createIpChecks } from '../ip-checks.js';
import { mainAndOtherThreadsCpuMs } from '../process-cpu.js';
import { writeZoneFile } from '../sections/check-cpu.js';
import { startService } from '../service.js';
import { percentile, round } from '../stats.js';
import { parseVariants, type Variant } from './variants.js';
import { startExperimentWorld } from './experiment-world.js';

/**
 * Side-by-side CPU per uncached IP check of service variants (experiments, not `npm run bench`):
 *
 *   AB_VARIANTS='base=dist-base/server.js;new=dist/server.js|--max-semi-space-size=16' \
 *     npx tsx bench/experiments/ab-cpu.ts
 *
 * Each variant is `name=entry[|node flags][|ENV=value,...]` (`DOH_URL=$DOH_URL` names the
 * fixture's DoH endpoint); each gets a fresh memory-store
 * service over the same fixture DNS. Rounds of AB_CHECKS uncached checks, AB_CONCURRENCY at a
 * time, go to each variant in an order that turns every round, so the machine's drift falls on
 * all alike; the figure is each variant's median round, its main thread and its other threads
 * (V8's platform workers: GC, compilers) apart.
 */

const variants = parseVariants(process.env.AB_VARIANTS ?? 'main=dist/server.js');
const rounds = Number(process.env.AB_ROUNDS ?? 5);
const perRound = Number(process.env.AB_CHECKS ?? 600);
const concurrency = Number(process.env.AB_CONCURRENCY ?? 24);

const { world, dns } = await startExperimentWorld(
  rounds * perRound * variants.length + 200 * variants.length,
  { withSoakZones: true },
);
await dns.setLatency(0);
// The 18 IP lists the CPU targets were set at, unless AB_LISTS says otherwise (0: the whole catalogue).
const listCount = Number(process.env.AB_LISTS ?? 18);
const zoneFile = listCount > 0 ? await writeZoneFile(world.ipZoneNames, listCount) : undefined;
const addresses = [...world.sets.memory];
const take = (count: number) => addresses.splice(0, count);
const http = createHttpClient(Math.max(concurrency, 8));

const services: {
  variant: Variant;
  service: Awaited<ReturnType<typeof startService>>;
  checks: ReturnType<typeof createIpChecks>;
  mainMs: number[];
  othersMs: number[];
}[] = [];
for (const variant of variants) {
  const service = await startService({
    dnsServer: dns.address,
    entry: variant.entry,
    nodeFlags: variant.flags,
    env: {
      STORE_URL: 'memory:',
      ...(zoneFile ? { DNSBL_ZONES_FILE: zoneFile } : {}),
      // `DOH_URL=$DOH_URL`: the fixture's own DoH endpoint.
      ...Object.fromEntries(
        Object.entries(variant.env).map(([name, value]) => [
          name,
          value === '$DOH_URL' ? dns.dohUrl : value,
        ]),
      ),
    },
  });
  const checks = createIpChecks(http, service.base, concurrency);
  await checks.checkAll(take(200), 60_000);
  services.push({ variant, service, checks, mainMs: [] as number[], othersMs: [] as number[] });
}

try {
  for (let round_ = 0; round_ < rounds; round_++) {
    const order = services.map((_, index) => services[(index + round_) % services.length]!);
    for (const entry of order) {
      const before = await mainAndOtherThreadsCpuMs(entry.service.pid);
      const run = await entry.checks.checkAll(take(perRound), 120_000);
      const after = await mainAndOtherThreadsCpuMs(entry.service.pid);
      if (run.done !== perRound)
        console.error(`${entry.variant.name}: ${run.done} of ${perRound} checks came back clean`);
      entry.mainMs.push((after.main - before.main) / perRound);
      entry.othersMs.push((after.others - before.others) / perRound);
    }
    console.error(`round ${round_ + 1} of ${rounds} done`);
  }
  for (const { variant, mainMs, othersMs } of services) {
    const total = mainMs.map((ms, index) => ms + othersMs[index]!);
    console.log(
      `${variant.name.padEnd(12)} total ${round(percentile(total, 50), 3)} ms  main ${round(percentile(mainMs, 50), 3)}  others ${round(percentile(othersMs, 50), 3)}  rounds ${total.map((ms) => round(ms, 2)).join(' ')}`,
    );
  }
} finally {
  for (const { service } of services) await service.stop();
  await dns.close();
  http.close();
}
