import { availableParallelism } from 'node:os';
import { answerOf, startBareHttp } from '../reference/bare-http.js';
import { type CannonRun, cannon } from '../cannon.js';
import { startRedisServer } from '../../fixtures/redis-server.js';
import { type StoreReads, measureStoreReads } from '../store-reads.js';
import type { Row } from '../report.js';
import { ratioOf } from '../report.js';
import { type RunningService, startService, temporarySqliteFile } from '../service.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 4. Cached path: the same POST again (result cache) and GET by token, on each store (memory,
 * SQLite, Redis) and with WORKERS=2 on SQLite, beside their ceiling: a bare node:http server
 * answering the same request with the same bytes, loaded the same way in the same run, so each
 * ratio says how much of this machine's limit the framework, the service and its store leave.
 * The targets (docs/benchmarks.md, section 4): SQLite at ≥ 0.8× and Redis at ≥ 0.5× the memory
 * store's cached POST rate.
 */

interface Backend {
  label: string;
  service: RunningService;
  token: string;
}

const warmUpSeconds = 1;
/** Rounds of each path on each server; each figure is the median round's. */
const rounds = 3;

const targets: Record<string, { ratio: number; label: string } | undefined> = {
  sqlite: { ratio: 0.8, label: '≥ 0.8 × memory' },
  redis: { ratio: 0.5, label: '≥ 0.5 × memory' },
};

export async function measureCachedPaths({
  settings,
  world,
  dns,
  service,
  serviceLaunch,
  checks,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { cachedSeconds, cachedConnections, cachedPipelining } = settings;
  const [address] = world.sets.latency;
  const token = checks.tokens.get(address ?? '');
  if (!address || !token)
    throw new Error('no cached result to ask for (the latency section did not run)');
  const post = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ target: address }),
  };
  const cores = availableParallelism();

  progress('4. starting a memory, a SQLite, a Redis and a WORKERS=2 service');
  await dns.setLatency(0);
  const redis = await startRedisServer();
  const backends: Backend[] = [];
  // Each store on a fresh service of its own, so that none carries the earlier sections' heap
  // and caches (the run's own service, on SQLite, has made thousands of checks by now).
  const others: Array<[string, Record<string, string>]> = [
    ['memory', { STORE_URL: 'memory:' }],
    ['sqlite', { STORE_URL: `sqlite:${temporarySqliteFile()}` }],
    ['redis', { STORE_URL: redis.url }],
    [
      `sqlite, WORKERS=2 on ${cores} cores`,
      { STORE_URL: `sqlite:${temporarySqliteFile()}`, WORKERS: '2' },
    ],
  ];
  const runs: Record<string, Record<string, CannonRun>> = {};
  let storeReads: Record<string, StoreReads> | undefined;
  let bare;
  try {
    for (const [label, env] of others) {
      const started = await startService({
        dnsServer: dns.address,
        env: { ...serviceLaunch.env, ...env },
        nodeFlags: serviceLaunch.nodeFlags,
      });
      // The same result made on this service, so its cached POST and its token answer.
      const made = JSON.parse((await answerOf(`${started.base}/ip/v1`, post)).body) as {
        token: string;
      };
      backends.push({ label, service: started, token: made.token });
    }
    bare = await startBareHttp({
      post: await answerOf(`${service.base}/ip/v1`, post),
      get: await answerOf(`${service.base}/ip/v1/${token}`),
    });
    const options = {
      connections: cachedConnections,
      pipelining: cachedPipelining,
      duration: cachedSeconds,
    };
    // A fresh process runs its first thousands of requests through V8's baseline tiers: warm
    // each service up on both paths before anything is measured.
    progress(`4. warming up the ${backends.length} services, ${warmUpSeconds} s per path`);
    for (const backend of backends) {
      await cannon(backend.service, {
        url: `${backend.service.base}/ip/v1`,
        ...post,
        ...options,
        duration: warmUpSeconds,
      });
      await cannon(backend.service, {
        url: `${backend.service.base}/ip/v1/${backend.token}`,
        ...options,
        duration: warmUpSeconds,
      });
    }
    for (const path of ['cached POST', 'GET by token'] as const) {
      progress(
        `4. ${path}, ${rounds} rounds of ${cachedSeconds} s on a bare node:http server and on ${backends.length} services, ${cachedConnections} connections, pipelining ${cachedPipelining}`,
      );
      const request = (base: string, backendToken: string) =>
        path === 'cached POST'
          ? { url: `${base}/ip/v1`, ...post }
          : { url: `${base}/ip/v1/${backendToken}` };
      const targetsInTurn = [
        { label: 'bare', load: () => cannon(bare!, { ...request(bare!.base, token), ...options }) },
        ...backends.map((backend) => ({
          label: backend.label,
          load: () =>
            cannon(backend.service, {
              ...request(backend.service.base, backend.token),
              ...options,
            }),
        })),
      ];
      // Rounds in a turning order, each figure the median of its rounds: one run of a few
      // seconds on this shared machine moves by a third, and a fixed order favours whoever goes
      // first after a quiet moment.
      const measured: Record<string, CannonRun[]> = {};
      for (let round = 0; round < rounds; round++) {
        for (let turn = 0; turn < targetsInTurn.length; turn++) {
          const target = targetsInTurn[(turn + round) % targetsInTurn.length]!;
          (measured[target.label] ??= []).push(await target.load());
        }
      }
      runs[path] = Object.fromEntries(
        Object.entries(measured).map(([label, results]) => [label, medianRun(results)]),
      );
    }
    progress('4. the store reads of a cached POST alone, in this process, on each store');
    const answer = JSON.parse((await answerOf(`${service.base}/ip/v1`, post)).body) as Record<
      string,
      unknown
    >;
    storeReads = await measureStoreReads(
      redis.url,
      JSON.stringify({ token, result: { ...answer, token: undefined } }),
    );
  } finally {
    await bare?.stop();
    for (const backend of backends) await backend.service.stop();
    await redis.stop();
  }

  const setting = `${cachedConnections} conn., pipelining ${cachedPipelining}, median of ${rounds} rounds of ${cachedSeconds} s`;
  const rows: Row[] = [];
  for (const [path, byBackend] of Object.entries(runs)) {
    const ceiling = byBackend.bare!;
    const memory = byBackend.memory!;
    for (const backend of backends) {
      const result = byBackend[backend.label]!;
      const bad = result.bad + ceiling.bad;
      const about = `${setting}; p99 ${result.latency.p99} ms; CPU per request ${result.serviceCpuUs} µs, bare ${ceiling.serviceCpuUs} µs`;
      const target = path === 'cached POST' ? targets[backend.label] : undefined;
      const common = {
        section: 4,
        value: result.rate,
        unit: '/s',
        ...(bad > 0
          ? { note: `${result.bad} errors or non-2xx (bare server: ${ceiling.bad})` }
          : {}),
      };
      if (backend.label === 'memory') {
        rows.push({
          ...common,
          measurement: `${path} req/s, memory store (${about})`,
          reference: { label: 'bare node:http', value: ceiling.rate },
          ratio: ratioOf(result.rate, ceiling.rate),
          ...(path === 'cached POST'
            ? { target: '≥ 10000', met: result.rate >= 10_000 && result.bad === 0 }
            : {}),
        });
        continue;
      }
      rows.push({
        ...common,
        // A comparison, not a limit (WORKERS=2 may pass the one-process memory store): its ratio
        // goes in the text, as the peer's does.
        measurement: `${path} req/s, ${backend.label} store (${ratioOf(result.rate, memory.rate)}× the memory store; ${about}; bare node:http ${ceiling.rate}/s)`,
        reference: { label: 'memory store', value: memory.rate },
        ...(target
          ? {
              target: target.label,
              met: result.rate >= target.ratio * memory.rate && result.bad === 0,
            }
          : {}),
      });
    }
  }
  for (const [label, reads] of Object.entries(storeReads ?? {})) {
    const memory = storeReads!.memory!;
    rows.push({
      section: 4,
      measurement: `store reads of a cached POST, ${label} store (quota count + result-cache entry, in the bench process; ${reads.perSecond}/s${label === 'memory' ? '' : `; ${ratioOf(reads.cpuUs, memory.cpuUs)}× the memory store's CPU`})`,
      value: reads.cpuUs,
      unit: 'µs CPU',
      ...(label === 'memory' ? {} : { reference: { label: 'memory store', value: memory.cpuUs } }),
    });
  }
  return { rows, details: { cores, runs, storeReads } };
}

/** The run of the median rate (rounds are odd in number, so it is one of them, whole). */
function medianRun(results: readonly CannonRun[]): CannonRun {
  const sorted = [...results].sort((a, b) => a.rate - b.rate);
  return sorted[Math.floor(sorted.length / 2)]!;
}
