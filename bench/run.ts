import { readFile } from 'node:fs/promises';
import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon';
import { defaultCacheOptions } from '../src/dns/caching.js';
import type { ListStatus } from '../src/reputation/dnsbl.js';
import { loadZoneList } from '../src/reputation/zones.js';
import { defaultMemoryStoreOptions } from '../src/store/memory.js';
import type { Listings } from '../test/fixtures/dnsbl-world.js';
import { AddressAllocator } from './addresses.js';
import { FullGcLog } from './gc-log.js';
import { createBareDns, waitUntilIdle } from './bare-dns.js';
import { startBenchDns } from './dns-fixture.js';
import { createHttpClient } from './http.js';
import {
  countListings,
  difference,
  runOurs,
  runPeerBatch,
  runPeerPerCheck,
  type Timeouts,
} from './peer.js';
import { formatTable, ratioOf, type Row, writeResults } from './report.js';
import { killServices, startService } from './service.js';
import { distribution, mainThreadCpuMs, round, runPool, timed } from './stats.js';

/**
 * `npm run bench` (issue #6): the fixture DNS server with the default zone list and 20 ms per
 * answer, the service in its own process, and in one run: uncached latency beside the two-round-
 * trip floor, uncached throughput beside the bare node:dns ceiling, our DNSBL engine beside the
 * `dnsbl` package, the cached paths, the share artefacts and the memory after 20,000 checks.
 *
 * Knobs (environment): BENCH_ONLY=latency,throughput,peer,cached,share,memory runs a subset (no
 * results.json then); BENCH_CPU_PROF_DIR=/tmp/prof starts the service with --cpu-prof;
 * BENCH_LOG_LEVEL sets the service's LOG_LEVEL (default error); BENCH_MEMORY_CHECKS (default
 * 20000); BENCH_CACHED_PIPELINING (default 10); BENCH_CACHED_CONNECTIONS (default 64).
 */

const sectionNames = ['latency', 'throughput', 'peer', 'cached', 'share', 'memory'] as const;
type Section = (typeof sectionNames)[number];
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const selected = new Set<Section>(
  only ? sectionNames.filter((name) => only.includes(name)) : sectionNames,
);
const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** The whole run stays under 5 minutes: past this the benchmark stops and says so. */
const runBudgetMs = 290_000;
const injectedLatencyMs = 20;
const concurrency = 32;
const latencySamples = 240;
const throughputRounds = 2;
const throughputPerRound = 1000;
const peerRounds = 4;
const peerPerRound = 500;
const memoryChecks = envNumber('BENCH_MEMORY_CHECKS', 20_000);
const cachedSeconds = 10;
const cachedConnections = envNumber('BENCH_CACHED_CONNECTIONS', 64);
const cachedPipelining = envNumber('BENCH_CACHED_PIPELINING', 10);
const cardSeconds = 5;
const cardConnections = 16;
const cardPipelining = 1;
/** Our check deadline and the peer's timeout in the correctness part, the same on both sides. */
const peerTimeouts: Timeouts = { ms: 1500 };
const slowZone = { zone: 'psbl.surriel.com', latencyMs: 2500 };
const droppingZone = 'dnsbl.dronebl.org';

const runStarted = performance.now();
const watchdog = setTimeout(() => {
  console.error(`bench: over the ${runBudgetMs / 1000} s budget, stopping`);
  killServices();
  process.exit(2);
}, runBudgetMs);
watchdog.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killServices();
    process.exit(130);
  });
}
process.once('exit', killServices);

function progress(message: string): void {
  const seconds = ((performance.now() - runStarted) / 1000).toFixed(1);
  console.error(`[${seconds.padStart(5)} s] ${message}`);
}

// ---------------------------------------------------------------------------------------------
// The world: addresses for every section, allocated up front so each is fresh where it is used.

const zones = await loadZoneList();
const ipZones = zones.filter((zone) => zone.type === 'ip');
const ipZoneNames = ipZones.map((zone) => zone.zone);
const allocator = new AddressAllocator(26_000);
const sets = {
  latencyWarmup: allocator.take(10),
  latency: allocator.take(latencySamples),
  latencyListed: allocator.take(20),
  throughputWarmup: allocator.take(300),
  throughput: Array.from({ length: throughputRounds }, () => allocator.take(throughputPerRound)),
  peer: Array.from({ length: peerRounds }, () => allocator.take(peerPerRound)),
  peerCorrectness: allocator.take(12),
  memory: allocator.take(memoryChecks),
};

const listings: Listings = {};
for (const address of sets.latencyListed) {
  listings[address] = { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] };
}
// Every 20th peer address is listed on three lists (both sides must find all of them).
const peerListed = sets.peer.flat().filter((_, index) => index % 20 === 7);
for (const address of peerListed) {
  listings[address] = {
    'zen.spamhaus.org': ['127.0.0.4'],
    'bl.spamcop.net': ['127.0.0.2'],
    'b.barracudacentral.org': ['127.0.0.2'],
  };
}
// The correctness set: answers where a bare "any A record is a listing" reading goes wrong.
const [c0, c1, c2, c3, c4, c5, c6, c7] = sets.peerCorrectness as [string, ...string[]];
const correctnessCases: Record<string, { listings: Record<string, string[]>; about: string }> = {
  [c0]: {
    listings: { 'zen.spamhaus.org': ['127.0.0.2'], [slowZone.zone]: ['127.0.0.2'] },
    about: `listed on zen and on ${slowZone.zone}, which answers after ${slowZone.latencyMs} ms`,
  },
  [c1!]: {
    listings: { 'bl.spamcop.net': ['127.0.0.2'], [droppingZone]: ['127.0.0.3'] },
    about: `listed on spamcop and on ${droppingZone}, which never answers`,
  },
  [c2!]: {
    listings: { 'zen.spamhaus.org': ['127.255.255.254'] },
    about: 'Spamhaus error code 127.255.255.254 (query refused)',
  },
  [c3!]: {
    listings: { 'list.dnswl.org': ['127.0.10.2'] },
    about: 'on the DNSWL allowlist',
  },
  [c4!]: {
    listings: { 'hostkarma.junkemailfilter.com': ['127.0.0.1'] },
    about: 'HostKarma white',
  },
  [c5!]: {
    listings: { 'score.senderscore.com': ['127.0.4.90'] },
    about: 'Sender Score 90',
  },
  [c6!]: {
    listings: { 'bl.spamcop.net': ['127.0.0.1'] },
    about: 'undocumented code 127.0.0.1',
  },
  [c7!]: {
    listings: { 'b.barracudacentral.org': ['127.0.0.2'], 'bl.blocklist.de': ['127.0.0.5'] },
    about: 'listed on barracuda and blocklist.de',
  },
};
for (const [address, entry] of Object.entries(correctnessCases)) listings[address] = entry.listings;

progress(`starting the fixture DNS (${allocator.used} addresses with PTR and A records)`);
const dns = await startBenchDns({
  addressCount: allocator.used,
  listings,
  latencyMs: injectedLatencyMs,
});
const cpuProfileDir = process.env.BENCH_CPU_PROF_DIR;
progress(
  `fixture DNS on ${dns.address}; starting the service${cpuProfileDir ? ' (--cpu-prof)' : ''}`,
);
const nodeFlags = process.env.BENCH_NODE_FLAGS?.split(' ').filter((flag) => flag !== '') ?? [];
const serviceEnv = { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error' };
const service = await startService({
  dnsServer: dns.address,
  env: serviceEnv,
  ...(cpuProfileDir ? { cpuProfileDir } : {}),
  nodeFlags,
});
progress(`service pid ${service.pid} on ${service.base}`);

const rows: Row[] = [];
const details: Record<string, unknown> = {};
const http = createHttpClient(concurrency);
const bare = createBareDns(dns.address, ipZoneNames);
/** Tokens of results made during the run, by address. */
const tokens = new Map<string, string>();

interface CheckAnswer {
  token: string;
  from_cache: boolean;
  ip_score: { answered: number; total: number; listed: number; rdns: { fcrdns: string } };
}

/** One uncached check through HTTP; false when it did not come back as a full fresh result. */
let answerBytes = 0;
let answers = 0;

async function check(address: string, expectListed = false, base = service.base): Promise<boolean> {
  const answer = await http.postJson(`${base}/ip/v1`, { target: address });
  if (answer.status !== 200) return false;
  answerBytes += answer.body.length;
  answers++;
  const body = JSON.parse(answer.body.toString()) as CheckAnswer;
  tokens.set(address, body.token);
  const score = body.ip_score;
  return (
    !body.from_cache &&
    score.answered === score.total &&
    score.rdns.fcrdns === 'pass' &&
    score.listed > 0 === expectListed
  );
}

async function checkAll(addresses: readonly string[], maxMs: number, base = service.base) {
  return runPool(addresses, concurrency, maxMs, (address) => check(address, false, base));
}

try {
  // -------------------------------------------------------------------------------------------
  // 1. Latency of one uncached check, sequential, 20 ms per DNS answer, beside the floor.
  if (!selected.has('latency') && (selected.has('cached') || selected.has('share'))) {
    progress('seeding results for the cached and share sections (latency section not selected)');
    await dns.setLatency(0);
    for (const address of [...sets.latency.slice(0, 1), ...sets.latency.slice(-20)]) {
      await check(address);
    }
    for (const address of sets.latencyListed) await check(address, true);
  }
  if (selected.has('latency')) {
    progress(`1. latency: ${latencySamples} sequential checks and their floors`);
    await dns.setLatency(injectedLatencyMs);
    for (const address of sets.latencyWarmup) {
      await bare.check(address);
      await check(address);
    }
    const floor: number[] = [];
    const serviceTimes: number[] = [];
    let wrong = 0;
    for (const address of sets.latency) {
      floor.push(await timed(() => bare.check(address)));
      const started = performance.now();
      if (!(await check(address))) wrong++;
      serviceTimes.push(performance.now() - started);
    }
    const listedTimes: number[] = [];
    for (const address of sets.latencyListed) {
      const started = performance.now();
      if (!(await check(address, true))) wrong++;
      listedTimes.push(performance.now() - started);
    }
    const floorD = distribution(floor);
    const serviceD = distribution(serviceTimes);
    const listedD = distribution(listedTimes);
    details.latency = { floor: floorD, service: serviceD, listed: listedD, wrong };
    rows.push(
      {
        section: 1,
        measurement: `uncached IP check p50 (HTTP, ${injectedLatencyMs} ms/answer, n=${serviceD.n})`,
        value: serviceD.p50,
        unit: 'ms',
        reference: { label: 'floor', value: floorD.p50 },
        ratio: ratioOf(serviceD.p50, floorD.p50),
        target: `≤ floor + 10 (${round(floorD.p50 + 10)})`,
        met: serviceD.p50 <= floorD.p50 + 10 && wrong === 0,
        ...(wrong > 0 ? { note: `${wrong} checks not a full fresh result` } : {}),
      },
      {
        section: 1,
        measurement: 'uncached IP check p95',
        value: serviceD.p95,
        unit: 'ms',
        reference: { label: 'floor', value: floorD.p95 },
        ratio: ratioOf(serviceD.p95, floorD.p95),
      },
      {
        section: 1,
        measurement: `listed address p50 (TXT reason after the listing, n=${listedD.n})`,
        value: listedD.p50,
        unit: 'ms',
        reference: { label: 'floor', value: floorD.p50 },
        ratio: ratioOf(listedD.p50, floorD.p50),
      },
    );
  }

  // -------------------------------------------------------------------------------------------
  // 2. Throughput of uncached checks at concurrency 32, no injected latency, beside the ceiling.
  if (selected.has('throughput')) {
    progress(
      `2. throughput: ${throughputRounds} rounds of ${throughputPerRound} checks, ceiling then service`,
    );
    await dns.setLatency(0);
    await checkAll(sets.throughputWarmup, 30_000);
    let ceilingDone = 0;
    let ceilingMs = 0;
    let serviceDone = 0;
    let serviceMs = 0;
    let failed = 0;
    let serviceCpuMs = 0;
    for (const addresses of sets.throughput) {
      const ceiling = await runPool(addresses, concurrency, 30_000, async (address) => {
        await bare.check(address);
        return true;
      });
      ceilingDone += ceiling.done;
      ceilingMs += ceiling.ms;
      const cpuBefore = await service.cpuMs();
      const run = await checkAll(addresses, 30_000);
      serviceCpuMs += (await service.cpuMs()) - cpuBefore;
      serviceDone += run.done;
      serviceMs += run.ms;
      failed += run.failed;
    }
    const ceilingRate = round((ceilingDone / ceilingMs) * 1000);
    const serviceRate = round((serviceDone / serviceMs) * 1000);
    const cpuPerCheckMs = round(serviceCpuMs / Math.max(1, serviceDone), 2);
    details.throughput = {
      ceilingDone,
      ceilingMs,
      serviceDone,
      serviceMs,
      failed,
      serviceCpuMs,
      cpuPerCheckMs,
    };
    rows.push({
      section: 2,
      measurement: `uncached checks/s, concurrency ${concurrency} (n=${serviceDone}; service CPU ${cpuPerCheckMs} ms/check)`,
      value: serviceRate,
      unit: '/s',
      reference: { label: 'ceiling', value: ceilingRate },
      ratio: ratioOf(serviceRate, ceilingRate),
      target: '≥ 0.7 × ceiling',
      met: serviceRate >= 0.7 * ceilingRate && failed === 0,
      ...(failed > 0 ? { note: `${failed} checks failed or incomplete` } : {}),
    });
  }

  // -------------------------------------------------------------------------------------------
  // 3. The peer (npm `dnsbl`) beside our DNSBL engine alone, in this process, same fixture.
  if (selected.has('peer')) {
    progress(`3. peer: ${peerRounds} rounds of ${peerPerRound} addresses, each side first in turn`);
    await dns.setLatency(0);
    const sides = {
      ours: { done: 0, ms: 0, cpuMs: 0, listed: new Map<string, Set<string>>() },
      peer: { done: 0, ms: 0, cpuMs: 0, listed: new Map<string, Set<string>>() },
    };
    const runSide = (side: 'ours' | 'peer', addresses: readonly string[]) =>
      side === 'ours'
        ? runOurs(dns.address, ipZones, addresses, concurrency, peerTimeouts, 60_000)
        : runPeerPerCheck(dns.address, ipZoneNames, addresses, concurrency, peerTimeouts, 60_000);
    // The same addresses for both sides in a round; who goes first alternates, so neither side
    // always meets the fixture's socket backlog or the machine's slow moments.
    for (const [index, addresses] of sets.peer.entries()) {
      const order = index % 2 === 0 ? (['peer', 'ours'] as const) : (['ours', 'peer'] as const);
      for (const side of order) {
        const cpuBefore = mainThreadCpuMs();
        const run = await runSide(side, addresses);
        sides[side].cpuMs += mainThreadCpuMs() - cpuBefore;
        sides[side].done += run.done;
        sides[side].ms += run.ms;
        for (const [address, zones] of run.listed) sides[side].listed.set(address, zones);
      }
    }
    const oursRate = round((sides.ours.done / sides.ours.ms) * 1000);
    const peerRate = round((sides.peer.done / sides.peer.ms) * 1000);
    const expectedListings = peerListed.length * 3;
    const oursCpuPerCheck = round(sides.ours.cpuMs / Math.max(1, sides.ours.done), 2);
    const peerCpuPerCheck = round(sides.peer.cpuMs / Math.max(1, sides.peer.done), 2);
    const peerMissed = difference(sides.ours.listed, sides.peer.listed);
    const peerExtra = difference(sides.peer.listed, sides.ours.listed);
    rows.push({
      section: 3,
      measurement: `DNSBL checks/s, ${ipZones.length} IP zones, concurrency ${concurrency} (engine, no HTTP)`,
      value: oursRate,
      unit: '/s',
      reference: { label: 'peer', value: peerRate },
      ratio: ratioOf(oursRate, peerRate),
      target: 'faster than the peer',
      met: oursRate > peerRate,
    });
    rows.push({
      section: 3,
      measurement: 'client CPU per check (main thread, no fixture)',
      value: oursCpuPerCheck,
      unit: 'ms',
      reference: { label: 'peer', value: peerCpuPerCheck },
      ratio: ratioOf(oursCpuPerCheck, peerCpuPerCheck),
    });
    rows.push({
      section: 3,
      measurement: `listings found (${expectedListings} planted on ${peerListed.length} addresses)`,
      value: countListings(sides.ours.listed),
      unit: '',
      reference: { label: 'peer', value: countListings(sides.peer.listed) },
      target: 'same listings',
      met:
        countListings(sides.ours.listed) === expectedListings &&
        peerMissed.length === 0 &&
        peerExtra.length === 0,
    });

    // Correctness: a dropping zone, a zone slower than the timeout, error codes and grades.
    progress(`3. peer: correctness with ${droppingZone} dropping and ${slowZone.zone} slow`);
    await dns.override([{ zone: droppingZone, behaviour: 'drop' }, slowZone]);
    const statuses = new Map<string, Map<string, ListStatus>>();
    const [peerC, oursC] = await Promise.all([
      runPeerPerCheck(dns.address, ipZoneNames, sets.peerCorrectness, 12, peerTimeouts, 30_000),
      runOurs(dns.address, ipZones, sets.peerCorrectness, 12, peerTimeouts, 30_000, statuses),
    ]);
    await dns.override([]);
    const cases = sets.peerCorrectness.map((address) => {
      const planted = correctnessCases[address];
      const zonesOfInterest = new Set([
        ...Object.keys(planted?.listings ?? {}),
        slowZone.zone,
        droppingZone,
      ]);
      return {
        address,
        about: planted?.about ?? 'listed nowhere',
        lists: [...zonesOfInterest].map((zone) => ({
          zone,
          ours: statuses.get(address)?.get(zone) ?? 'missing',
          peer: peerC.listed.get(address)?.has(zone) ? 'listed' : 'not listed',
        })),
      };
    });
    const disagreements = cases.flatMap((entry) =>
      entry.lists
        .filter((list) => (list.ours === 'listed') !== (list.peer === 'listed'))
        .map((list) => ({ address: entry.address, about: entry.about, ...list })),
    );
    const oursTimeouts = cases.flatMap((entry) =>
      entry.lists.filter((list) => list.ours === 'timeout'),
    ).length;
    const silentTimeouts = cases.flatMap((entry) =>
      entry.lists.filter((list) => list.ours === 'timeout' && list.peer === 'not listed'),
    ).length;
    // The peer's bulk mode over the same addresses: one resolver for the whole batch.
    progress('3. peer: its bulk mode, one batch() over the same addresses');
    const bulk = await runPeerBatch(
      dns.address,
      ipZoneNames,
      sets.peer.flat(),
      concurrency,
      peerTimeouts,
    );
    const bulkMissed = difference(sides.ours.listed, bulk.listed);
    rows.push({
      section: 3,
      measurement: `peer bulk batch() checks/s (one resolver, ${concurrency * ipZones.length} queries in flight)`,
      value: bulk.rate,
      unit: '/s',
      reference: { label: 'ours', value: oursRate },
      ratio: ratioOf(bulk.rate, oursRate),
      note: `missed ${bulkMissed.length} of ${expectedListings} listings`,
    });

    const drainedMs = await waitUntilIdle(dns.address, 50, 20_000);
    details.peer = {
      timeoutMs: peerTimeouts.ms,
      speed: {
        ours: { done: sides.ours.done, ms: sides.ours.ms },
        peer: { done: sides.peer.done, ms: sides.peer.ms },
      },
      peerMissed,
      peerExtra,
      bulk: {
        rate: bulk.rate,
        ms: bulk.ms,
        missed: bulkMissed.length,
        missedSample: bulkMissed.slice(0, 5),
        fixtureBacklogMs: round(drainedMs),
      },
      correctness: {
        cases,
        disagreements,
        oursTimeouts,
        silentTimeouts,
        oursMs: oursC.ms,
        peerMs: peerC.ms,
      },
    };
    rows.push({
      section: 3,
      measurement: `timeouts the peer reports as "not listed" (${sets.peerCorrectness.length} addresses, 1 dropping + 1 slow zone)`,
      value: silentTimeouts,
      unit: '',
      reference: { label: 'ours: timeout', value: oursTimeouts },
    });
    const falseListings = disagreements.filter((entry) => entry.peer === 'listed');
    rows.push({
      section: 3,
      measurement: 'answers the peer reads as listings: error codes, allowlist, grades',
      value: falseListings.length,
      unit: '',
      reference: { label: 'ours', value: 0 },
      note: falseListings
        .map((entry) => `${entry.about} (${entry.zone}: ours ${entry.ours})`)
        .join('; '),
    });
  }

  // -------------------------------------------------------------------------------------------
  // 4. Cached path: the same POST again (result cache) and GET by token.
  if (selected.has('cached')) {
    const [address] = sets.latency;
    const token = tokens.get(address ?? '');
    if (!address || !token)
      throw new Error('no cached result to ask for (the latency section did not run)');
    const options = {
      connections: cachedConnections,
      pipelining: cachedPipelining,
      duration: cachedSeconds,
    };
    progress(
      `4. cached POST, ${cachedSeconds} s, ${cachedConnections} connections, pipelining ${cachedPipelining}`,
    );
    const post = await cannon({
      url: `${service.base}/ip/v1`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: address }),
      ...options,
    });
    progress(`4. GET by token, ${cachedSeconds} s`);
    const get = await cannon({ url: `${service.base}/ip/v1/${token}`, ...options });
    const setting = `${cachedConnections} conn., pipelining ${cachedPipelining}`;
    for (const [name, result] of [
      ['cached POST', post],
      ['GET by token', get],
    ] as const) {
      rows.push({
        section: 4,
        measurement: `${name} req/s (${setting}, ${cachedSeconds} s; p99 ${result.latency.p99} ms; service CPU ${result.serviceCpuUs} µs/req)`,
        value: result.rate,
        unit: '/s',
        target: '≥ 10000',
        met: result.rate >= 10_000 && result.bad === 0,
        ...(result.bad > 0 ? { note: `${result.bad} errors or non-2xx` } : {}),
      });
    }
    details.cached = { post, get };
  }

  // -------------------------------------------------------------------------------------------
  // 5. Share artefacts: cold card renders, cached cards, badges.
  if (selected.has('share')) {
    const cardTokens = [...sets.latencyListed, ...sets.latency.slice(-20)]
      .map((address) => tokens.get(address))
      .filter((token): token is string => token !== undefined);
    const [first, ...cold] = cardTokens;
    if (!first) throw new Error('no tokens for cards (the latency section did not run)');
    progress(`5. share: ${cardTokens.length} cold cards, cached card ${cardSeconds} s, badges`);
    const cardUrl = (token: string) => `${service.base}/ip/v1/share/${token}/card`;
    const firstMs = await timed(async () => assertOk(await http.get(cardUrl(first))));
    const coldTimes: number[] = [];
    for (const token of cold) {
      coldTimes.push(await timed(async () => assertOk(await http.get(cardUrl(token)))));
    }
    const coldD = distribution(coldTimes);
    const cachedCard = await cannon({
      url: cardUrl(first),
      connections: cardConnections,
      pipelining: cardPipelining,
      duration: cardSeconds,
    });
    const badgeTimes: number[] = [];
    for (const token of [...cardTokens, ...cardTokens, ...cardTokens]) {
      badgeTimes.push(
        await timed(async () =>
          assertOk(await http.get(`${service.base}/ip/v1/share/${token}/badge.svg`)),
        ),
      );
    }
    const badgeD = distribution(badgeTimes);
    details.share = { firstCardMs: round(firstMs), cold: coldD, cachedCard, badge: badgeD };
    rows.push(
      {
        section: 5,
        measurement: `card cold render p50 (HTTP, n=${coldD.n}; first card ${round(firstMs)} ms)`,
        value: coldD.p50,
        unit: 'ms',
        target: '≤ 60',
        met: coldD.p50 <= 60,
      },
      {
        section: 5,
        measurement: 'card cold render p95',
        value: coldD.p95,
        unit: 'ms',
        target: '≤ 60',
        met: coldD.p95 <= 60,
      },
      {
        section: 5,
        measurement: `cached card req/s (${cardConnections} conn., pipelining ${cardPipelining}, ${cardSeconds} s; service CPU ${cachedCard.serviceCpuUs} µs/req)`,
        value: cachedCard.rate,
        unit: '/s',
        ...(cachedCard.bad > 0 ? { note: `${cachedCard.bad} errors or non-2xx` } : {}),
      },
      {
        section: 5,
        measurement: `badge p50 (HTTP, n=${badgeD.n}; p95 ${badgeD.p95} ms)`,
        value: badgeD.p50,
        unit: 'ms',
      },
    );
  }

  // -------------------------------------------------------------------------------------------
  // 6. Memory: RSS of a fresh service process after 20,000 distinct checks.
  if (selected.has('memory')) {
    // A process of its own: the RSS left by the other sections (autocannon's bursts, sharp's
    // buffers) would blur what the checks keep. --trace-gc tells the live heap after each full GC.
    progress(
      `6. memory: a fresh service, ${memoryChecks} distinct checks, concurrency ${concurrency}`,
    );
    await service.stop();
    await dns.setLatency(0);
    const fullGcs = new FullGcLog();
    const fresh = await startService({
      dnsServer: dns.address,
      env: serviceEnv,
      nodeFlags: [...nodeFlags, '--trace-gc'],
      onLine: (line) => fullGcs.read(line),
    });
    let run;
    let atStart;
    let after;
    try {
      atStart = await fresh.memory();
      run = await checkAll(sets.memory, 160_000, fresh.base);
      after = await fresh.memory();
    } finally {
      await fresh.stop();
    }
    const bounds = await cacheBounds();
    // What full caches may hold, as bytes: the store's chars (one-byte JSON strings), the cards,
    // and 1 KiB per DNS cache entry; the RSS may grow that much above the fresh process's.
    const allowanceMiB = round(
      (bounds.storeMaxValueChars + bounds.cardCacheBytes + bounds.dnsCacheEntries * 1024) / 2 ** 20,
    );
    const limitMiB = round(atStart.rssMiB + allowanceMiB);
    const heap = fullGcs.mainIsolate();
    const averageResultChars = answers > 0 ? Math.round(answerBytes / answers) : 0;
    details.memory = {
      atStart,
      after,
      checks: run.done,
      failed: run.failed,
      cappedByTime: run.cappedByTime,
      rate: run.rate,
      bounds,
      allowanceMiB,
      heapAfterFullGcMB: heap,
      averageResultChars,
      storedResultsMiB: round((run.done * averageResultChars) / 2 ** 20),
    };
    rows.push(
      {
        section: 6,
        measurement: `service RSS after ${run.done} distinct checks (fresh process: ${atStart.rssMiB} MiB at start)`,
        value: after.rssMiB,
        unit: 'MiB',
        reference: { label: 'start + bounds', value: limitMiB },
        ratio: ratioOf(after.rssMiB, limitMiB),
        target: '≤ start + cache bounds',
        met: after.rssMiB <= limitMiB && run.done === memoryChecks,
        note: `bounds: DNS cache ${bounds.dnsCacheEntries} entries (1 KiB each assumed), store ${bounds.storeMaxValueChars} chars, card cache ${bounds.cardCacheBytes} bytes; results held ≈ ${run.done} × ${averageResultChars} chars`,
      },
      {
        section: 6,
        measurement: `V8 live heap after the last full GC (${heap?.fullGcs ?? 0} full GCs, max ${heap?.max ?? '?'} MB)`,
        value: heap?.last ?? Number.NaN,
        unit: 'MB',
      },
    );
  }
} finally {
  http.close();
  progress('stopping the service and the fixture DNS');
  await service.stop();
  await dns.close();
  clearTimeout(watchdog);
}

// -----------------------------------------------------------------------------------------------
const totalSeconds = round((performance.now() - runStarted) / 1000);
console.log(formatTable(rows));
for (const row of rows.filter((entry) => entry.note)) {
  console.log(`  ${row.section}. ${row.measurement.replace(/ \(.*$/, '')}: ${row.note}`);
}
const targets = rows.filter((row) => row.met !== undefined);
console.log(
  `\n${targets.filter((row) => row.met).length} of ${targets.length} targets met; ${totalSeconds} s; node ${process.version}`,
);
if (selected.size === sectionNames.length) {
  const file = new URL('./results.json', import.meta.url);
  await writeResults(file, {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    seconds: totalSeconds,
    settings: {
      injectedLatencyMs,
      concurrency,
      latencySamples,
      throughputChecks: throughputRounds * throughputPerRound,
      peerChecks: peerRounds * peerPerRound,
      memoryChecks,
      cached: {
        connections: cachedConnections,
        pipelining: cachedPipelining,
        seconds: cachedSeconds,
      },
      card: { connections: cardConnections, pipelining: cardPipelining, seconds: cardSeconds },
      serviceLogLevel: process.env.BENCH_LOG_LEVEL ?? 'error',
      cpuProfile: cpuProfileDir !== undefined,
    },
    rows,
    targetsMet: targets.every((row) => row.met),
    details,
  });
  console.log(`results written to ${file.pathname}`);
} else {
  console.log(`(subset ${[...selected].join(',')}: results.json not written)`);
}
if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(details, null, 2));

// -----------------------------------------------------------------------------------------------

function assertOk(answer: { status: number }): void {
  if (answer.status !== 200) throw new Error(`unexpected HTTP ${answer.status}`);
}

/** autocannon, with the rate from completed 2xx responses over the measured duration. */
async function cannon(options: AutocannonOptions): Promise<{
  rate: number;
  bad: number;
  latency: { p50: number; p99: number };
  total: number;
  seconds: number;
  /** Service CPU per answered request: steadier than the rate on a shared machine. */
  serviceCpuUs: number;
}> {
  const cpuBefore = await service.cpuMs();
  const result: AutocannonResult = await autocannon({ timeout: 10, ...options });
  const cpu = (await service.cpuMs()) - cpuBefore;
  return {
    serviceCpuUs: round((cpu * 1000) / Math.max(1, result['2xx'])),
    rate: round(result['2xx'] / result.duration),
    bad: result.errors + result.timeouts + result.non2xx,
    latency: { p50: result.latency.p50, p99: result.latency.p99 },
    total: result['2xx'],
    seconds: result.duration,
  };
}

/** The configured cache bounds, read from the source the service runs. */
async function cacheBounds() {
  const services = await readFile(new URL('../src/services.ts', import.meta.url), 'utf8');
  const expression = /const cardCacheBytes = ([\d_ *]+);/.exec(services)?.[1];
  const cardCacheBytes = expression
    ? expression
        .split('*')
        .reduce((product, factor) => product * Number(factor.trim().replaceAll('_', '')), 1)
    : Number.NaN;
  return {
    dnsCacheEntries: defaultCacheOptions.maxEntries,
    storeMaxValueChars: defaultMemoryStoreOptions.maxValueChars,
    cardCacheBytes,
  };
}
