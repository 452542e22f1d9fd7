import { cpuTargets, ratioOf, type Row } from '../report.js';
import { type Distribution, distribution, round, timed } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';
import { measureWithSilentList } from './silent-list.js';
import { measureWithTestOnlyList } from './test-only-list.js';

/**
 * 1. Latency of one uncached check, sequential, 20 ms per DNS answer, beside the floor: the same
 * check's DNS work through the service's own resolver (dns-reference.ts), which the service cannot
 * beat. The ratio is floor ÷ service: the share of the limit reached, at most 1. The same for an
 * IPv6 address (the lists that cover IPv6 in nibble format, PTR under ip6.arpa, then AAAA). Then
 * the IPv4 check with one list silent (silent-list.ts), and with one that answers only its test
 * entries (test-only-list.ts).
 */
export async function measureLatency(context: BenchContext): Promise<SectionResult> {
  const { settings, world, dns, reference, checks, progress } = context;
  const { injectedLatencyMs, latencySamples } = settings;
  const { sets } = world;
  progress(`1. latency: ${latencySamples} sequential checks and their floors`);
  await dns.setLatency(injectedLatencyMs);
  for (const address of sets.latencyWarmup) {
    await reference.check(address);
    await checks.check(address);
  }
  const { floorD, serviceD, wrong: unfresh } = await againstFloor(context, sets.latency);
  let wrong = unfresh;
  const listedTimes: number[] = [];
  for (const address of sets.latencyListed) {
    const started = performance.now();
    if (!(await checks.check(address, true))) wrong++;
    listedTimes.push(performance.now() - started);
  }
  const ipv6 = await measureIpv6(context);
  const listedD = distribution(listedTimes);
  const rows: Row[] = [
    ...floorRows('IP', injectedLatencyMs, floorD, serviceD, wrong),
    {
      section: 1,
      measurement: `listed address p50 (TXT reason after the listing, n=${listedD.n})`,
      value: listedD.p50,
      unit: 'ms',
      reference: { label: 'floor', value: floorD.p50 },
      ratio: ratioOf(floorD.p50, listedD.p50),
    },
    ...ipv6.rows,
  ];
  const silent = await measureWithSilentList(context);
  const testOnly = await measureWithTestOnlyList(context);
  return {
    rows: [...rows, ...silent.rows, ...testOnly.rows],
    details: {
      floor: floorD,
      service: serviceD,
      listed: listedD,
      wrong,
      ipv6: ipv6.details,
      silentList: silent.details,
      testOnlyList: testOnly.details,
    },
  };
}

/**
 * The uncached IPv6 check beside its own floor, measured as the IPv4 row is, and its listed
 * addresses checked for their listing (both lists that cover IPv6 list them).
 */
async function measureIpv6(
  context: BenchContext,
): Promise<{ rows: Row[]; details: { floor: object; service: object; wrong: number } }> {
  const { settings, world, reference, checks, progress } = context;
  const { latency6Warmup, latency6, latency6Listed } = world.sets;
  progress(`1. latency: ${latency6.length} sequential IPv6 checks and their floors`);
  for (const address of latency6Warmup) {
    await reference.check(address);
    await checks.check(address);
  }
  const { floorD, serviceD, wrong: unfresh } = await againstFloor(context, latency6);
  let wrong = unfresh;
  for (const address of latency6Listed) {
    if (!(await checks.check(address, true))) wrong++;
  }
  const rows = floorRows('IPv6', settings.injectedLatencyMs, floorD, serviceD, wrong);
  return { rows, details: { floor: floorD, service: serviceD, wrong } };
}

/** Each address checked through the reference (the floor) and then through the service. */
async function againstFloor(
  { reference, checks }: BenchContext,
  addresses: readonly string[],
): Promise<{ floorD: Distribution; serviceD: Distribution; wrong: number }> {
  const floor: number[] = [];
  const serviceTimes: number[] = [];
  let wrong = 0;
  for (const address of addresses) {
    floor.push(await timed(() => reference.check(address)));
    const started = performance.now();
    if (!(await checks.check(address))) wrong++;
    serviceTimes.push(performance.now() - started);
  }
  return { floorD: distribution(floor), serviceD: distribution(serviceTimes), wrong };
}

/** The p50 row, with its target, and the p95 row of an uncached check beside its floor. */
function floorRows(
  kind: 'IP' | 'IPv6',
  injectedLatencyMs: number,
  floorD: Distribution,
  serviceD: Distribution,
  wrong: number,
): Row[] {
  return [
    {
      section: 1,
      measurement: `uncached ${kind} check p50 (HTTP, ${injectedLatencyMs} ms/answer, n=${serviceD.n})`,
      value: serviceD.p50,
      unit: 'ms',
      reference: { label: 'floor', value: floorD.p50 },
      ratio: ratioOf(floorD.p50, serviceD.p50),
      target: `≤ floor + ${cpuTargets.latencyOverFloorMs} (${round(floorD.p50 + cpuTargets.latencyOverFloorMs)})`,
      met: serviceD.p50 <= floorD.p50 + cpuTargets.latencyOverFloorMs && wrong === 0,
      ...(wrong > 0 ? { note: `${wrong} checks not a full fresh result` } : {}),
    },
    {
      section: 1,
      measurement: `uncached ${kind} check p95`,
      value: serviceD.p95,
      unit: 'ms',
      reference: { label: 'floor', value: floorD.p95 },
      ratio: ratioOf(floorD.p95, serviceD.p95),
    },
  ];
}
