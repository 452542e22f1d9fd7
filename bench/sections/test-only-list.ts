import { loadZoneList } from '../../src/reputation/index.js';
import { testEntriesOnly } from '../../fixtures/dnsbl-world.js';
import { createDnsReference } from '../reference/dns-reference.js';
import { ratioOf, type Row } from '../report.js';
import { round } from '../stats.js';
import type { BenchContext } from './context.js';
import { timeOneListOut, waitForState } from './silent-list.js';

/**
 * Section 1, with one list that drops every real look-up but answers its test entries, as behind
 * a caching resolver once the list's servers died, or a list that rate-limits real queries while
 * test names pass (docs/verdicts.md). Its self-test keeps passing, so only the hold rule (back
 * only on a real answer) and its latency-bound timeout keep checks fast. 20 checks pass first;
 * the measured ones must cost about what a check of the lists that answer costs, each with that
 * list not answered (timeout or on hold, never clean). The floor is dns-reference.ts's, as in
 * silent-list.ts.
 */
export async function measureWithTestOnlyList({
  settings,
  world,
  dns,
  service,
  http,
  checks,
  progress,
}: BenchContext): Promise<{ rows: Row[]; details: object }> {
  const { testOnlyZone, injectedLatencyMs } = settings;
  const zone = (await loadZoneList()).find((entry) => entry.zone === testOnlyZone);
  if (!zone) throw new Error(`testOnlyZone ${testOnlyZone} is not in the zone list`);
  const answering = world.ipZoneNames.filter((name) => name !== testOnlyZone);
  const reference = createDnsReference(dns.address, answering);
  progress(`1. latency with ${testOnlyZone} answering only its test entries`);
  await dns.override([{ zone: testOnlyZone, ...testEntriesOnly(zone) }]);
  try {
    const warmupStarted = performance.now();
    for (const address of world.sets.testOnlyWarmup)
      await checks.check(address, false, service.base, 1);
    const warmupMs = performance.now() - warmupStarted;

    const { floorD, serviceD, wrong } = await timeOneListOut(
      reference,
      checks,
      service.base,
      world.sets.testOnly,
    );
    const bound = floorD.p50 + injectedLatencyMs + 15;
    const rows: Row[] = [
      {
        section: 1,
        measurement: `uncached IP check p50, 1 list answering only its test entries, after 20 checks (n=${serviceD.n})`,
        value: serviceD.p50,
        unit: 'ms',
        reference: { label: 'floor', value: floorD.p50 },
        ratio: ratioOf(floorD.p50, serviceD.p50),
        target: `≤ floor + 1 RTT + 15 (${round(bound)})`,
        met: serviceD.p50 <= bound && wrong === 0,
        ...(wrong > 0 ? { note: `${wrong} checks not as expected` } : {}),
      },
    ];
    return {
      rows,
      details: { testOnlyZone, warmupMs: round(warmupMs), floor: floorD, service: serviceD, wrong },
    };
  } finally {
    await dns.override([]);
    // A real look-up answered brings the list back: the next sections find every list answering.
    if (!(await waitForState(http, service.base, testOnlyZone, 'active'))) {
      progress(`1. ${testOnlyZone} did not come back from hold`);
    }
  }
}
