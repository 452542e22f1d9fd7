import type { ListStatus } from '../../src/reputation/index.js';
import { waitUntilIdle } from '../reference/dns-reference.js';
import {
  countListings,
  difference,
  runBareDgram,
  runOurs,
  runPeerBatch,
  runPeerPerCheck,
} from '../reference/peer.js';
import { cpuTargets, ratioOf, type Row } from '../report.js';
import { mainThreadCpuMs, round } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/** 3. The peer (npm `dnsbl`) beside our DNSBL engine alone, in this process, same fixture. */
export async function comparePeer({
  settings,
  world,
  dns,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { concurrency, peerRounds, peerPerRound, peerTimeouts, slowZone, droppingZone } = settings;
  const { ipZones, ipZoneNames, sets, peerListed, correctnessCases } = world;
  const rows: Row[] = [];
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
  const runBare = (addresses: readonly string[]) =>
    runBareDgram(dns.address, ipZoneNames, addresses, concurrency, 60_000);
  // Uncounted first: V8 optimises each side's code only after some thousands of checks.
  for (const side of ['peer', 'ours'] as const) await runSide(side, sets.peerWarmup);
  await runBare(sets.peerWarmup);
  const bare = { done: 0, ms: 0, cpuMs: 0 };
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
    const cpuBefore = mainThreadCpuMs();
    const run = await runBare(addresses);
    bare.cpuMs += mainThreadCpuMs() - cpuBefore;
    bare.done += run.done;
    bare.ms += run.ms;
  }
  const bareRate = round((bare.done / bare.ms) * 1000);
  const bareCpuPerCheck = round(bare.cpuMs / Math.max(1, bare.done), 2);
  const oursRate = round((sides.ours.done / sides.ours.ms) * 1000);
  const peerRate = round((sides.peer.done / sides.peer.ms) * 1000);
  const expectedListings = peerListed.length * 3;
  const oursCpuPerCheck = round(sides.ours.cpuMs / Math.max(1, sides.ours.done), 2);
  const peerCpuPerCheck = round(sides.peer.cpuMs / Math.max(1, sides.peer.done), 2);
  const peerMissed = difference(sides.ours.listed, sides.peer.listed);
  const peerExtra = difference(sides.peer.listed, sides.ours.listed);
  rows.push({
    section: 3,
    measurement: `DNSBL checks/s, ${ipZones.length} IP zones, concurrency ${concurrency} (engine, no HTTP; ${ratioOf(oursRate, peerRate)}× the peer)`,
    value: oursRate,
    unit: '/s',
    reference: { label: 'peer', value: peerRate },
    target: `≥ ${cpuTargets.engineOverPeer} × the peer`,
    met: oursRate >= cpuTargets.engineOverPeer * peerRate,
  });
  rows.push({
    section: 3,
    measurement: `client CPU per check (main thread, no fixture; ${ratioOf(oursCpuPerCheck, peerCpuPerCheck)}× the peer's)`,
    value: oursCpuPerCheck,
    unit: 'ms',
    reference: { label: 'peer', value: peerCpuPerCheck },
  });
  rows.push({
    section: 3,
    measurement: `bare node:dgram, the same queries (the least any client on node:dgram does; ${ratioOf(bareRate, peerRate)}× the peer's checks/s, client CPU ${bareCpuPerCheck} ms a check)`,
    value: bareRate,
    unit: '/s',
    reference: { label: 'peer', value: peerRate },
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
    measurement: `peer bulk batch() checks/s (one resolver, ${concurrency * ipZones.length} queries in flight; ${ratioOf(bulk.rate, oursRate)}× ours)`,
    value: bulk.rate,
    unit: '/s',
    reference: { label: 'ours', value: oursRate },
    note: `missed ${bulkMissed.length} of ${expectedListings} listings`,
  });

  const drainedMs = await waitUntilIdle(dns.address, 50, 20_000);
  const details = {
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
  return { rows, details };
}
