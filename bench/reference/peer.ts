import { batch } from 'dnsbl';
import { createResolver } from '../../src/node/index.js';
import {
  createDeadline,
  createDnsblEngine,
  type DnsblZone,
  type ListStatus,
  targetLabel,
} from '../../src/reputation/index.js';
import { openBareDgram } from './bare-dgram.js';
import { type PoolRun, runPool } from '../stats.js';

/**
 * The peer: the npm package `dnsbl` against our DNSBL engine alone (no HTTP, no reverse DNS), on
 * the same IP zones, addresses and fixture, at the same number of checks in flight.
 */

/** For each address, the zones each side reports it listed on. */
export type Listed = Map<string, Set<string>>;

export interface SideRun extends PoolRun {
  listed: Listed;
}

export interface Timeouts {
  /** Deadline of our check and the peer's per-query timeout, the same for both. */
  ms: number;
}

/** Our engine over a fresh resolver (nothing cached), one check per address. */
export async function runOurs(
  dnsServer: string,
  zones: readonly DnsblZone[],
  addresses: readonly string[],
  concurrency: number,
  timeouts: Timeouts,
  maxMs: number,
  statuses?: Map<string, Map<string, ListStatus>>,
): Promise<SideRun> {
  const resolver = createResolver({ servers: [dnsServer], timeoutMs: 1500, retries: 1 });
  const engine = createDnsblEngine({ resolver, zones });
  const listed: Listed = new Map();
  const run = await runPool(addresses, concurrency, maxMs, async (address) => {
    const deadline = createDeadline(timeouts.ms);
    try {
      const report = await engine.check({ kind: 'ip', address }, deadline);
      const zonesListed = report.lists.filter((list) => list.status === 'listed');
      listed.set(address, new Set(zonesListed.map((list) => list.zone)));
      statuses?.set(address, new Map(report.lists.map((list) => [list.zone, list.status])));
      return true;
    } finally {
      deadline.clear();
    }
  });
  return { ...run, listed };
}

/**
 * The least any client on `node:dgram` does for the same checks (bench/reference/bare-dgram.ts: 8 connected
 * sockets, answers matched by ID alone, nothing read): every zone's A query at once, `concurrency`
 * checks in flight. Neither side can pass it; it finds no listing.
 */
export async function runBareDgram(
  dnsServer: string,
  zoneNames: readonly string[],
  addresses: readonly string[],
  concurrency: number,
  maxMs: number,
): Promise<PoolRun> {
  const bare = await openBareDgram(dnsServer);
  try {
    return await runPool(addresses, concurrency, maxMs, async (address) => {
      const label = targetLabel({ kind: 'ip', address });
      await Promise.all(zoneNames.map((zone) => bare.exchange(`${label}.${zone}`, 'A')));
      return true;
    });
  } finally {
    bare.close();
  }
}

/**
 * The peer as a service would call it for one check: `batch([address], zones)`, all zones at once
 * (its `concurrency` is per call), `concurrency` such calls in flight.
 */
export async function runPeerPerCheck(
  dnsServer: string,
  zoneNames: readonly string[],
  addresses: readonly string[],
  concurrency: number,
  timeouts: Timeouts,
  maxMs: number,
): Promise<SideRun> {
  const listed: Listed = new Map();
  const run = await runPool(addresses, concurrency, maxMs, async (address) => {
    const items = await batch([address], [...zoneNames], {
      servers: [dnsServer],
      timeout: timeouts.ms,
      concurrency: zoneNames.length,
    });
    listed.set(address, new Set(items.filter((item) => item.listed).map((item) => item.blacklist)));
    return true;
  });
  return { ...run, listed };
}

/**
 * The peer's own bulk mode: one `batch(addresses, zones)` call sharing one resolver, with as many
 * queries in flight as `checks` checks would have.
 */
export async function runPeerBatch(
  dnsServer: string,
  zoneNames: readonly string[],
  addresses: readonly string[],
  checks: number,
  timeouts: Timeouts,
): Promise<SideRun> {
  const started = performance.now();
  const items = await batch([...addresses], [...zoneNames], {
    servers: [dnsServer],
    timeout: timeouts.ms,
    concurrency: checks * zoneNames.length,
  });
  const ms = performance.now() - started;
  const listed: Listed = new Map(addresses.map((address) => [address, new Set<string>()]));
  for (const item of items) if (item.listed) listed.get(item.address)?.add(item.blacklist);
  return {
    done: addresses.length,
    failed: 0,
    ms: Math.round(ms * 10) / 10,
    rate: Math.round((addresses.length / ms) * 10_000) / 10,
    cappedByTime: false,
    listed,
  };
}

/** Listings one side reports and the other does not, as `address zone` strings. */
export function difference(a: Listed, b: Listed): string[] {
  const missing: string[] = [];
  for (const [address, zones] of a) {
    for (const zone of zones) if (!b.get(address)?.has(zone)) missing.push(`${address} ${zone}`);
  }
  return missing;
}

export function countListings(listed: Listed): number {
  let count = 0;
  for (const zones of listed.values()) count += zones.size;
  return count;
}
