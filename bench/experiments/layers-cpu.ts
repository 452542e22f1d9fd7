import { batch } from 'dnsbl';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { serve } from '@hono/node-server';
import { createApp } from '../../src/app.js';
import {
  compressResponses,
  createNodeServices,
  createResolver,
  readConfig,
} from '../../src/node/index.js';
import { checkIp, createDeadline, createDnsblEngine } from '../../src/reputation/index.js';
import { benchAddress } from '../addresses.js';
import { openDgramCeiling } from '../reference/dgram-ceiling.js';
import { startFixtureProcess } from './fixture-process.js';
import { createHttpClient } from '../http.js';
import { writeZoneFile } from '../sections/check-cpu.js';
import { round, runPool } from '../stats.js';

/**
 * Where the CPU of an uncached IP check goes, layer by layer (an experiment beside
 * `npm run bench`, not part of it): the service's own services and app built in this process as
 * `src/server.ts` builds them, over a fixture DNS server in a child process (so this process's
 * CPU, every thread, is the service's), with the first LAYERS_LISTS IP lists (default 18).
 *
 *   npx tsx bench/experiments/layers-cpu.ts
 *
 * Rows, each on fresh addresses, LAYERS_CHECKS checks LAYERS_CONCURRENCY at a time after 1,000
 * uncounted ones, LAYERS_ROUNDS rounds in turn, each with its median round and the V8 heap it
 * allocated a check: `bare` (the bare node:dgram client: the lists, PTR and A), `peer` (npm
 * `dnsbl` on the same lists), `bareEngine` (our engine over a resolver of its own, as section 3
 * runs it), `engine` (the service's engine: its resolver stack, gates and metrics), `checkIp`
 * (the lists, PTR and A), `confirmed` (and the resolver's confirmation), `app` (a POST through
 * `app.request`, no socket), `http` (the POST through node:http on 127.0.0.1, the load
 * generator's CPU counted too) and `cached` (the same POST again, from the result cache).
 * LAYERS_ONLY=engine,http picks rows; LAYERS_HEAP_SAMPLE=1 prints the sites that allocate most
 * (V8's sampling heap profiler, collected objects included) over one round of each row instead.
 * docs/benchmarks.md, "The second speed pass", has what it found.
 */

const lists = Number(process.env.LAYERS_LISTS ?? 18);
const perRound = Number(process.env.LAYERS_CHECKS ?? 1000);
const rounds = Number(process.env.LAYERS_ROUNDS ?? 5);
const concurrency = Number(process.env.LAYERS_CONCURRENCY ?? 24);
const addressCount = 60_000;

const fixture = await startFixtureProcess(addressCount);
const bundled = (await import('../../assets/dnsbl-zones.json', { with: { type: 'json' } }))
  .default as { zone: string; type: string }[];
const ipZones = bundled.filter((zone) => zone.type === 'ip').map((zone) => zone.zone);
const zonesFile = await writeZoneFile(ipZones, lists);

const config = readConfig({
  DNS_SERVERS: fixture.address,
  STORE_URL: 'memory:',
  LOG_LEVEL: 'error',
  DAILY_LIMIT: '10000000',
  SELFTEST_INTERVAL_S: '86400',
  DNSBL_ZONES_FILE: zonesFile,
  MAX_CONNECTIONS_PER_CLIENT: '512',
});
const services = await createNodeServices(config, () => {});
const app = createApp({
  ...services,
  config,
  peerAddress: () => '127.0.0.1',
  compression: compressResponses(),
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const port = (server.address() as { port: number }).port;
const http = createHttpClient(concurrency);
const base = `http://127.0.0.1:${port}${config.basePath}`;

const ipDeps = {
  resolver: services.resolver,
  dnsbl: services.dnsbl,
  deadlineMs: 4000,
  now: () => new Date(),
};
const checkedOverHttp: string[] = [];
let cachedNext = 0;
let next = 0;
const take = (count: number) =>
  Array.from({ length: count }, () => benchAddress(next++ % addressCount));

const peerZones = ipZones.slice(0, lists);
const bareEngine = createDnsblEngine({
  resolver: createResolver({ servers: [fixture.address], timeoutMs: 1500, retries: 1 }),
  zones: services.zones.filter((zone) => zone.type === 'ip'),
});
const ceiling = await openDgramCeiling(fixture.address, ipZones.slice(0, lists));
const layers = {
  async bare(address: string) {
    await ceiling.check(address);
    return true;
  },
  /** The npm `dnsbl` peer on the same lists, as bench/reference/peer.ts calls it for one check. */
  async peer(address: string) {
    await batch([address], peerZones, {
      servers: [fixture.address],
      timeout: 4000,
      concurrency: peerZones.length,
    });
    return true;
  },
  /** Our engine as bench/reference/peer.ts builds it: over a resolver of its own, no gates or metrics. */
  async bareEngine(address: string) {
    const deadline = createDeadline(4000);
    try {
      await bareEngine.check({ kind: 'ip', address }, deadline);
    } finally {
      deadline.clear();
    }
    return true;
  },
  async engine(address: string) {
    const deadline = createDeadline(4000);
    try {
      await services.dnsbl.check({ kind: 'ip', address }, deadline);
    } finally {
      deadline.clear();
    }
    return true;
  },
  async checkIp(address: string) {
    const outcome = await checkIp(ipDeps, { kind: 'ipv4', address });
    return outcome.ok;
  },
  async confirmed(address: string) {
    const confirmation = services.confirmResolver();
    const outcome = await checkIp(ipDeps, { kind: 'ipv4', address });
    return outcome.ok && (await confirmation.settle(250)) !== 'lying';
  },
  async app(address: string) {
    const response = await app.request(`${config.basePath}/ip/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: address }),
    });
    await response.text();
    return response.status === 200;
  },
  async http(address: string) {
    const answer = await http.postJson(`${base}/ip/v1`, { target: address });
    if (answer.status === 200) checkedOverHttp.push(address);
    return answer.status === 200;
  },
  /** The same POST again: answered from the result cache (no check, nothing saved). */
  async cached() {
    const address = checkedOverHttp[cachedNext++ % checkedOverHttp.length]!;
    const answer = await http.postJson(`${base}/ip/v1`, { target: address });
    return answer.status === 200 && answer.body.includes('"from_cache":true');
  },
} as const;

type Layer = keyof typeof layers;
const only = process.env.LAYERS_ONLY?.split(',');
const names = (Object.keys(layers) as Layer[]).filter((name) => !only || only.includes(name));
const figures = new Map<Layer, number[]>(names.map((name) => [name, []]));
const allocations = new Map<Layer, number[]>(names.map((name) => [name, []]));
const gcCounts = new Map<Layer, number[]>(names.map((name) => [name, []]));
for (const name of names) await runPool(take(1000), concurrency, 60_000, layers[name]);
if (process.env.LAYERS_HEAP_SAMPLE) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  for (const name of names) await runPool(take(perRound), concurrency, 120_000, layers[name]);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
    profile: { head: HeapNode };
  };
  interface HeapNode {
    callFrame: { functionName: string; url: string; lineNumber: number };
    selfSize: number;
    children: HeapNode[];
  }
  const bySite = new Map<string, number>();
  const walk = (node: HeapNode, stack: string[]) => {
    const frame = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.replace(/.*\/(src|node_modules)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
    const here = [...stack, frame];
    if (node.selfSize > 0) {
      const key = here.slice(-3).join(' < ');
      bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);
  const total = [...bySite.values()].reduce((a, b) => a + b, 0);
  console.log(
    `sampled ${Math.round(total / 1024)} KiB over ${perRound} checks: ${Math.round(total / 1024 / perRound)} KiB per check`,
  );
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${(bytes / perRound / 1024).toFixed(2).padStart(7)} KiB  ${site}`);
  }
  process.exit(0);
}
for (let round_ = 0; round_ < rounds; round_++) {
  for (const name of names.map((_, index) => names[(index + round_) % names.length]!)) {
    const profiler = new GCProfiler();
    const heapBefore = getHeapStatistics().used_heap_size;
    profiler.start();
    const before = process.cpuUsage();
    const run = await runPool(take(perRound), concurrency, 120_000, layers[name]);
    const used = process.cpuUsage(before);
    const gc = profiler.stop() as unknown as {
      statistics: {
        gcType: string;
        beforeGC: { heapStatistics: { usedHeapSize: number } };
        afterGC: { heapStatistics: { usedHeapSize: number } };
      }[];
    };
    let allocated = 0;
    let last = heapBefore;
    for (const event of gc.statistics) {
      allocated += event.beforeGC.heapStatistics.usedHeapSize - last;
      last = event.afterGC.heapStatistics.usedHeapSize;
    }
    allocated += getHeapStatistics().used_heap_size - last;
    allocations.get(name)!.push(allocated / perRound / 1024);
    gcCounts.get(name)!.push(gc.statistics.length / perRound);
    if (run.failed > 0) console.error(`${name}: ${run.failed} failed`);
    figures.get(name)!.push((used.user + used.system) / 1000 / perRound);
  }
}
for (const [name, values] of figures) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(
    `${name.padEnd(8)} ${round(sorted[Math.floor(sorted.length / 2)]!, 3)} ms per check  (${values.map((value) => round(value, 2)).join(', ')}); allocated ${allocations
      .get(name)!
      .map((kib) => round(kib, 0))
      .join(', ')} KiB per check, ${round(gcCounts.get(name)!.at(-1)! * 1000, 1)} GCs per 1,000`,
  );
}
http.close();
ceiling.close();
server.close();
await services.close();
fixture.stop();
