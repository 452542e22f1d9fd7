import { createDnsReference } from '../reference/dns-reference.js';
import { ratioOf, type Row } from '../report.js';
import { distribution, round, timed } from '../stats.js';
import type { BenchContext } from './context.js';

/**
 * Section 1, with one list silent: its server drops every query after the service has started
 * (its self-test passed), as a list that goes down does. The first checks pay its timeout and put
 * it on hold; every check after must cost about what a check of the lists that answer costs. The
 * floor is the same check's DNS work on those lists through the service's own resolver
 * (dns-reference.ts), in the same run.
 */

interface ListsAnswer {
  lists: { zone: string; state: string }[];
}

const holdWaitMs = 15_000;

export async function measureWithSilentList({
  settings,
  world,
  dns,
  service,
  http,
  checks,
  progress,
}: BenchContext): Promise<{ rows: Row[]; details: object }> {
  const { silentZone, injectedLatencyMs } = settings;
  const answering = world.ipZoneNames.filter((zone) => zone !== silentZone);
  const reference = createDnsReference(dns.address, answering);
  progress(`1. latency with ${silentZone} silent: ${world.sets.silent.length} checks`);
  await dns.override([{ zone: silentZone, behaviour: 'drop' }]);
  try {
    // Look-ups that time out put the list on hold: these checks wait for it, at most their deadline.
    const warmupStarted = performance.now();
    await Promise.all(world.sets.silentWarmup.map((address) => checks.check(address)));
    const held = await waitForState(http, service.base, silentZone, 'on_hold');
    const warmupMs = performance.now() - warmupStarted;

    const { floorD, serviceD, wrong } = await timeOneListOut(
      reference,
      checks,
      service.base,
      world.sets.silent,
    );
    const bound = floorD.p50 + injectedLatencyMs + 15;
    const rows: Row[] = [
      {
        section: 1,
        measurement: `uncached IP check p50, 1 list silent and on hold (n=${serviceD.n})`,
        value: serviceD.p50,
        unit: 'ms',
        reference: { label: 'floor', value: floorD.p50 },
        ratio: ratioOf(floorD.p50, serviceD.p50),
        target: `≤ floor + 1 RTT + 15 (${round(bound)})`,
        met: held && serviceD.p50 <= bound && wrong === 0,
        ...(wrong > 0 || !held
          ? { note: `${held ? '' : 'never put on hold; '}${wrong} checks not as expected` }
          : {}),
      },
    ];
    return {
      rows,
      details: {
        silentZone,
        held,
        warmupMs: round(warmupMs),
        floor: floorD,
        service: serviceD,
        wrong,
      },
    };
  } finally {
    await dns.override([]);
    // The background probe brings the list back: the next sections find every list answering.
    if (!(await waitForState(http, service.base, silentZone, 'active'))) {
      progress(`1. ${silentZone} did not come back from hold`);
    }
  }
}

/**
 * Each address checked by the floor (the lists that answer) and by the service, in turn; a check
 * is wrong unless every list answered but the one left out (a check that read it as clean would
 * count one answer more).
 */
export async function timeOneListOut(
  reference: ReturnType<typeof createDnsReference>,
  checks: BenchContext['checks'],
  base: string,
  addresses: readonly string[],
) {
  const floor: number[] = [];
  const serviceTimes: number[] = [];
  let wrong = 0;
  for (const address of addresses) {
    floor.push(await timed(() => reference.check(address)));
    const started = performance.now();
    if (!(await checks.check(address, false, base, 1))) wrong++;
    serviceTimes.push(performance.now() - started);
  }
  return { floorD: distribution(floor), serviceD: distribution(serviceTimes), wrong };
}

/** Polls GET /lists until the list is in `state`; false after 15 s. */
export async function waitForState(
  http: BenchContext['http'],
  base: string,
  zone: string,
  state: string,
): Promise<boolean> {
  const deadline = performance.now() + holdWaitMs;
  while (performance.now() < deadline) {
    const answer = await http.get(`${base}/lists`);
    const lists = JSON.parse(answer.body.toString()) as ListsAnswer;
    if (lists.lists.find((list) => list.zone === zone)?.state === state) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
