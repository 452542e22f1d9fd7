import {
  createDohTransport,
  type DnsOutcome,
  type Resolver,
  withResolverStack,
} from '../../src/dns/index.js';
import { createDgramTransport, createHttp2Exchanges } from '../../src/node/dns/index.js';
import { loadZoneList, reverseName, targetLabel } from '../../src/reputation/index.js';
import { benchAddress } from '../addresses.js';
import { type FixtureProcess, startFixtureProcess } from './fixture-process.js';
import { openBareDgram } from '../reference/bare-dgram.js';
import { createNodeTransport } from './c-ares-transport.js';
import { round } from '../stats.js';

/**
 * `npx tsx bench/experiments/transport-cpu.ts`: the CPU each DNS transport spends per query, side by side in
 * one run, against one fixture DNS server (and its DoH endpoint) running in a child process, so
 * this process's CPU (process.cpuUsage: every thread, to the microsecond) is the transports' own.
 *
 * Each round fans BENCH_TRANSPORT_CHECKS uncached IP checks' DNS work through each transport, 24
 * checks in flight: per check every IP list's A query (the lists asked without a key: 33 of the
 * bundled list) in parallel with PTR then the PTR name's A, each check's address a fresh one.
 * The transports sit under the in-flight cap the Node platform puts them under (512 over UDP;
 * over DoH 64 through `fetch`, 100 over HTTP/2) and its answer cache, which every query passes
 * (each check's address is fresh), as in the service. Rounds take the transports in a turning
 * order; the figures are each transport's median round.
 * Knobs: BENCH_TRANSPORT_CHECKS (default 1000: 35,000 queries a round), BENCH_TRANSPORT_ROUNDS
 * (default 3), BENCH_TRANSPORT_ONLY (a comma list of none, c-ares, bare-dgram, dgram, doh-fetch,
 * doh-h2).
 */

const checks = Number(process.env.BENCH_TRANSPORT_CHECKS ?? 1000);
const rounds = Number(process.env.BENCH_TRANSPORT_ROUNDS ?? 3);
const only = process.env.BENCH_TRANSPORT_ONLY?.split(',');
const checksInFlight = 24;
const warmupChecks = 100;
const dnsOptions = { timeoutMs: 1500, retries: 1 };

interface Candidate {
  /** What BENCH_TRANSPORT_ONLY names it by. */
  key: string;
  name: string;
  maxInFlight: number;
  open(fixture: Fixture): Opened | Promise<Opened>;
}

interface Opened {
  transport: Resolver;
  close(): void;
}

type Fixture = Pick<FixtureProcess, 'address' | 'dohUrl'>;

/** What every row also pays: the service's stack over the transport, and this script's checks. */
const nxdomain = Promise.resolve({ status: 'nxdomain' } as const);
const floor: Resolver = { query: () => nxdomain };

const allCandidates: Candidate[] = [
  {
    key: 'none',
    name: 'none (the stack and the checks alone)',
    maxInFlight: 512,
    open: () => ({ transport: floor, close: () => {} }),
  },
  {
    key: 'c-ares',
    name: 'c-ares (node:dns)',
    maxInFlight: 512,
    open: (fixture) => ({
      transport: createNodeTransport({ servers: [fixture.address], ...dnsOptions }),
      close: () => {},
    }),
  },
  {
    key: 'bare-dgram',
    name: 'bare node:dgram (bench/reference/bare-dgram.ts)',
    maxInFlight: 512,
    open: (fixture) => openBareDgram(fixture.address),
  },
  {
    key: 'dgram',
    name: 'node:dgram + wire.ts (udp)',
    maxInFlight: 512,
    open: (fixture) => {
      const transport = createDgramTransport({ servers: [fixture.address], ...dnsOptions });
      return { transport, close: () => transport.close() };
    },
  },
  {
    key: 'doh-fetch',
    name: 'DoH, fetch per query',
    maxInFlight: 64,
    open: (fixture) => ({
      transport: createDohTransport({ endpoints: [fixture.dohUrl], ...dnsOptions }),
      close: () => {},
    }),
  },
  {
    key: 'doh-h2',
    name: 'DoH, one HTTP/2 session (doh)',
    maxInFlight: 100,
    open: (fixture) => {
      const sessions = createHttp2Exchanges();
      const transport = createDohTransport({
        endpoints: [fixture.dohUrl],
        ...dnsOptions,
        exchange: sessions.exchange,
      });
      return { transport, close: () => sessions.close() };
    },
  },
];
const candidates = allCandidates.filter((candidate) => !only || only.includes(candidate.key));

interface Round {
  cpuUsPerQuery: number;
  /** Of which in the kernel (system time): the socket calls. */
  systemUsPerQuery: number;
  queriesPerSecond: number;
  /** Queries that did not get an answer, NXDOMAIN or NODATA. */
  failed: number;
}

/** One check's DNS work: every IP list's A query, in parallel with PTR then A. */
function checkOf(transport: Resolver, zones: readonly string[], address: string) {
  const label = targetLabel({ kind: 'ip', address });
  const reverse = transport
    .query(reverseName(address), 'PTR')
    .then((ptr) =>
      ptr.status === 'answer'
        ? Promise.all(ptr.records.map((name) => transport.query(name, 'A'))).then((a) => [
            ptr,
            ...a,
          ])
        : [ptr],
    );
  return Promise.all([...zones.map((zone) => transport.query(`${label}.${zone}`, 'A')), reverse]);
}

const isFailure = (outcome: DnsOutcome<unknown>) =>
  !['answer', 'nxdomain', 'nodata'].includes(outcome.status);

/** `count` checks of fresh addresses from `first`, `checksInFlight` at a time. */
async function runChecks(
  transport: Resolver,
  zones: readonly string[],
  first: number,
  count: number,
): Promise<{ queries: number; failed: number }> {
  let next = first;
  let queries = 0;
  let failed = 0;
  const worker = async () => {
    while (next < first + count) {
      const outcomes = (await checkOf(transport, zones, benchAddress(next++))).flat();
      queries += outcomes.length;
      failed += outcomes.filter(isFailure).length;
    }
  };
  await Promise.all(Array.from({ length: checksInFlight }, worker));
  return { queries, failed };
}

// The lists a check asks: IP lists, but those that answer only with an operator's key.
const zones = (await loadZoneList())
  .filter((zone) => zone.type === 'ip' && !zone.key)
  .map((zone) => zone.zone);
const queriesPerCheck = zones.length + 2;
const perRound = warmupChecks + checks;
const fixture = await startFixtureProcess(perRound * rounds * candidates.length);
const results = new Map<string, Round[]>(candidates.map((candidate) => [candidate.name, []]));
let nextAddress = 0;

for (let round = 0; round < rounds; round++) {
  const order = candidates.map((_, index) => candidates[(index + round) % candidates.length]!);
  for (const candidate of order) {
    const { transport, close } = await candidate.open(fixture);
    // The service's stack: every address is fresh, so every query passes its cache to the wire.
    const capped = withResolverStack(transport, { maxInFlight: candidate.maxInFlight });
    await runChecks(capped, zones, nextAddress, warmupChecks);
    nextAddress += warmupChecks;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const { queries, failed } = await runChecks(capped, zones, nextAddress, checks);
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    nextAddress += checks;
    close();
    results.get(candidate.name)!.push({
      cpuUsPerQuery: (cpu.user + cpu.system) / queries,
      systemUsPerQuery: cpu.system / queries,
      queriesPerSecond: (queries / elapsedMs) * 1000,
      failed,
    });
  }
}
fixture.stop();

const median = (values: number[]) => values.toSorted((a, b) => a - b)[values.length >> 1]!;
console.log(
  `${checks} checks (${checks * queriesPerCheck} queries) per round, ${checksInFlight} checks in flight, ${rounds} rounds; medians`,
);
console.log('| Transport | CPU per query | of which system | Queries/s | Failed (all rounds) |');
console.log('| --- | --- | --- | --- | --- |');
for (const candidate of candidates) {
  const runs = results.get(candidate.name)!;
  const cpu = round(median(runs.map((run) => run.cpuUsPerQuery)), 1);
  const system = round(median(runs.map((run) => run.systemUsPerQuery)), 1);
  const rate = Math.round(median(runs.map((run) => run.queriesPerSecond)));
  const failed = runs.reduce((sum, run) => sum + run.failed, 0);
  console.log(`| ${candidate.name} | ${cpu} µs | ${system} µs | ${rate} | ${failed} |`);
}
