import { startBenchDns } from './dns-fixture.js';
import { createDnsReference } from './reference/dns-reference.js';
import { createHttpClient } from './http.js';
import { createIpChecks } from './ip-checks.js';
import { formatTable, type Row, writeResults } from './report.js';
import { measureCachedPaths } from './sections/cached.js';
import { measureCheckCpu } from './sections/check-cpu.js';
import { measureDohLatency } from './sections/doh-latency.js';
import type { BenchContext, BenchSection } from './sections/context.js';
import { measureLatency } from './sections/latency.js';
import { measureCardFlood } from './sections/card-flood.js';
import { measureMemory } from './sections/memory.js';
import { comparePeer } from './sections/peer-comparison.js';
import { seedResults } from './sections/seed-results.js';
import { measureShareArtefacts } from './sections/share.js';
import { measureSoak } from './sections/soak.js';
import { measureStart } from './sections/start.js';
import { measureThroughput } from './sections/throughput.js';
import { measureWatches } from './sections/watches.js';
import { measureMailLatency } from './sections/mail-latency.js';
import { measureReportsSummary } from './sections/reports-summary.js';
import { measureTrickleCpu } from './sections/trickle-cpu.js';
import { measureReportsIntake } from './sections/reports-intake.js';
import { ensureBuilt, killServices, startService } from './service.js';
import { readSettings } from './settings.js';
import { round } from './stats.js';
import { buildWorld } from './world.js';

/**
 * `npm run bench` (docs/benchmarks.md): the fixture DNS server with the default zone list and 20 ms
 * per answer, the service in its own process, and in one run: uncached latency beside the
 * two-round- trip floor, uncached latency over DoH (DNS_TRANSPORT=doh) beside UDP, uncached
 * throughput beside the ceiling, our DNSBL engine beside the `dnsbl` package, the cached paths on
 * each store, the share artefacts, a card flood, the memory after 20,000 checks, a soak, the
 * start, the watches, an uncached mail check beside its floor, and the reports' summary over a
 * year of a million records on SQLite and PostgreSQL (a server of its own), and the reports' intake
 * over HTTP beside a bare read of the same files. The
 * service runs on the default kind of store, SQLite, in a file under /tmp; section 4 starts a
 * redis-server of its own (Debian's `redis-server` must be installed).
 *
 * Knobs (environment): BENCH_ONLY=latency,doh,throughput,cpu,peer,cached,share,cardflood,memory,soak,start,watch,mail,reports,trickle,intake runs a subset (no
 * results.json then); BENCH_CPU_PROF_DIR=/tmp/prof starts the service with --cpu-prof;
 * BENCH_LOG_LEVEL sets the service's LOG_LEVEL (default error); BENCH_NODE_FLAGS adds node flags
 * to the service (e.g. --trace-gc); BENCH_MEMORY_CHECKS (default 20000); BENCH_CACHED_PIPELINING
 * (default 10); BENCH_CACHED_CONNECTIONS (default 64); BENCH_CARD_FLOOD (cards in section 7,
 * default 400); BENCH_SOAK_S (the soak's length, default 180); BENCH_MAX_RESULTS (maximum-size
 * results before the soak, default 200); BENCH_START_RUNS (starts of each kind in the start section,
 * default 5); BENCH_WATCH_INTERVAL_S and BENCH_WATCH_ROUNDS (section 11, default 10 and 3);
 * BENCH_REPORTS_RECORDS and BENCH_REPORTS_SAMPLES (section 13, default 1,000,000 and 40);
 * BENCH_TRICKLE_WARMUP and BENCH_TRICKLE_ROUNDS (section 14, default 3,000 and 3);
 * BENCH_INTAKE_REPORTS and BENCH_INTAKE_CONNECTIONS (section 15, default 2,000 and 4);
 * BENCH_VERBOSE=1 prints the details as JSON.
 */

/** The sections by their BENCH_ONLY names, in the order they run (docs/benchmarks.md's numbers). */
const sections = {
  latency: measureLatency,
  doh: measureDohLatency,
  throughput: measureThroughput,
  cpu: measureCheckCpu,
  peer: comparePeer,
  cached: measureCachedPaths,
  share: measureShareArtefacts,
  // Before memory, which stops the shared service.
  cardflood: measureCardFlood,
  memory: measureMemory,
  soak: measureSoak,
  start: measureStart,
  watch: measureWatches,
  mail: measureMailLatency,
  reports: measureReportsSummary,
  trickle: measureTrickleCpu,
  intake: measureReportsIntake,
} satisfies Record<string, BenchSection>;
type SectionName = keyof typeof sections;
const sectionNames = Object.keys(sections) as SectionName[];
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const selected = new Set<SectionName>(
  only ? sectionNames.filter((name) => only.includes(name)) : sectionNames,
);
const settings = readSettings(process.env);
const cpuProfileDir = process.env.BENCH_CPU_PROF_DIR;
const nodeFlags = process.env.BENCH_NODE_FLAGS?.split(' ').filter((flag) => flag !== '') ?? [];
const serviceEnv = { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error' };

/**
 * The whole run stays under 10 minutes plus the soak's length (13 minutes by default), and five
 * more each for the reports' million records and the trickling answers when those sections run,
 * and four for the reports' intake: past this the benchmark stops and says so.
 */
const runBudgetMs =
  600_000 +
  settings.soakSeconds * 1000 +
  (selected.has('reports') ? 300_000 : 0) +
  (selected.has('trickle') ? 300_000 : 0) +
  (selected.has('intake') ? 240_000 : 0);
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

// -----------------------------------------------------------------------------------------------
progress('building dist/ if a source file is newer (the service runs as npm start runs it)');
ensureBuilt();
const world = await buildWorld(settings);
progress(`starting the fixture DNS (${world.addressCount} addresses with PTR and A records)`);
const dns = await startBenchDns({
  addressCount: world.addressCount,
  ipv6AddressCount: world.ipv6AddressCount,
  listings: world.listings,
  latencyMs: settings.injectedLatencyMs,
  extraZones: [...world.soak.zones, ...world.mail.zones],
});
progress(
  `fixture DNS on ${dns.address}; starting the service${cpuProfileDir ? ' (--cpu-prof)' : ''}`,
);
const service = await startService({
  dnsServer: dns.address,
  env: serviceEnv,
  ...(cpuProfileDir ? { cpuProfileDir } : {}),
  nodeFlags,
});
progress(`service pid ${service.pid} on ${service.base}`);

const rows: Row[] = [];
const details: Record<string, unknown> = {};
const http = createHttpClient(settings.concurrency);
const context: BenchContext = {
  settings,
  world,
  dns,
  service,
  serviceLaunch: { env: serviceEnv, nodeFlags, ...(cpuProfileDir ? { cpuProfileDir } : {}) },
  http,
  reference: createDnsReference(dns.address, world.ipZoneNames, world.ipv6ZoneNames),
  checks: createIpChecks(http, service.base, settings.concurrency),
  progress,
};

try {
  if (!selected.has('latency') && (selected.has('cached') || selected.has('share'))) {
    await seedResults(context);
  }
  for (const name of selected) {
    const result = await sections[name](context);
    rows.push(...result.rows);
    details[name] = result.details;
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
      injectedLatencyMs: settings.injectedLatencyMs,
      concurrency: settings.concurrency,
      latencySamples: settings.latencySamples,
      throughputChecks: settings.throughputRounds * settings.throughputPerRound,
      peerChecks: settings.peerRounds * settings.peerPerRound,
      memoryChecks: settings.memoryChecks,
      cached: {
        connections: settings.cachedConnections,
        pipelining: settings.cachedPipelining,
        seconds: settings.cachedSeconds,
      },
      card: {
        connections: settings.cardConnections,
        pipelining: settings.cardPipelining,
        seconds: settings.cardSeconds,
      },
      cardFlood: { cards: settings.cardFloodCards, concurrency: settings.cardFloodConcurrency },
      soak: {
        seconds: settings.soakSeconds,
        rates: settings.soakRates,
        maxInFlight: settings.soakMaxInFlight,
        maxResults: settings.maxResults,
      },
      watches: { intervalS: settings.watchIntervalS, rounds: settings.watchRounds },
      serviceLogLevel: serviceEnv.LOG_LEVEL,
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
