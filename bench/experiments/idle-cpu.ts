import { createHttpClient } from '../http.js';
import { createIpChecks } from '../ip-checks.js';
import { startService } from '../service.js';
import { startTrickle } from '../trickle.js';
import { parseVariants } from './variants.js';
import { startExperimentWorld } from './experiment-world.js';
import { threadRunMsById } from '../process-cpu.js';

/**
 * What a warm service spends doing nothing (an experiment, not `npm run bench`): each variant (as
 * in trickle-ab.ts, `IDLE_VARIANTS='base=<dir>/server.js;new=dist/server.js'`) is warmed by
 * IDLE_WARMUP checks (1,500) over the trickling forwarder, then left alone; every IDLE_WINDOW_S
 * (10 s) for IDLE_WINDOWS windows (4) it prints the CPU each thread used, in ms a second. A
 * check one at a time lasts tens of milliseconds of which the service is idle nearly all, so
 * what it spends idle is part of each check's CPU in section 14 (docs/benchmarks.md, "Answers
 * that trickle").
 */

const variants = parseVariants(process.env.IDLE_VARIANTS ?? 'main=dist/server.js');
const warmupChecks = Number(process.env.IDLE_WARMUP ?? 1500);
const windowMs = Number(process.env.IDLE_WINDOW_S ?? 10) * 1000;
const windows = Number(process.env.IDLE_WINDOWS ?? 4);

const { world, dns } = await startExperimentWorld(warmupChecks * variants.length + 100);
const trickle = await startTrickle(dns.address, world);
const http = createHttpClient(24);
const addresses = [...world.sets.memory];
try {
  for (const variant of variants) {
    const service = await startService({
      dnsServer: trickle.address,
      entry: variant.entry,
      nodeFlags: variant.flags,
      env: { STORE_URL: 'memory:', ...variant.env },
    });
    try {
      await createIpChecks(http, service.base, 24).checkAll(
        addresses.splice(0, warmupChecks),
        600_000,
      );
      for (let index = 0; index < windows; index++) {
        const before = await threadRunMsById(service.pid);
        await new Promise((resolve) => setTimeout(resolve, windowMs));
        const after = await threadRunMsById(service.pid);
        const perSecond = (task: string) =>
          ((after.get(task)! - (before.get(task) ?? 0)) * 1000) / windowMs;
        const main = perSecond(String(service.pid));
        const others = [...after.keys()]
          .filter((task) => task !== String(service.pid))
          .reduce((sum, task) => sum + perSecond(task), 0);
        console.log(
          `${variant.name} window ${index + 1}: main thread ${main.toFixed(2)} ms/s, other threads ${others.toFixed(2)} ms/s`,
        );
      }
    } finally {
      await service.stop();
    }
  }
} finally {
  await trickle.close();
  await dns.close();
  http.close();
}
