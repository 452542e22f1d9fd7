import type { ListGate } from './dnsbl.js';
import {
  type HoldTiming,
  type ListRecord,
  type ListStanding,
  applyVerdict,
  endHold,
  probeMissed,
  recordLookup,
  stateOf,
  standingOf,
} from './list-health.js';
import type { ListState } from './list-health-schemas.js';
import { type ListKeys, missingKey, missingKeyReason } from './list-keys.js';
import { type ListSide, sideKey, sideZone, sidesOf } from './list-sides.js';
import type { ListStats, ListTraffic } from './list-stats.js';
import type { SideReading } from './lists-projection.js';
import { type SelfTestRun, positiveEntry } from './self-test.js';
import type { DnsblZone } from './zones.js';

/**
 * Every list side's record (list-health.ts) and what follows from it now: its state, its standing
 * with the reason, and the gate a check reads, with the look-up timeout the side's own latency
 * earns. The zone monitor decides when records change (self-test runs, look-ups, probes); this
 * file keeps them and answers from them, the states worked out at most once a second and again
 * whenever a record changes: each check asks them of every list, and readiness of one list at
 * least.
 */

/**
 * How long a look-up waits for one list: while the list is active, a few times its own measured
 * latency rather than the resolver's whole timeout, so a list that slows down or drops a query
 * costs a check tens of milliseconds, not seconds. Measured latency is the list's p95 on the wire
 * over the last hour (list-stats.ts); until it has enough answers, the resolver's timeout holds.
 */

/** The wait is this many times the list's p95: a slow answer within it still comes in. */
export const p95Multiple = 4;
/** Never less than this: a little over the round trip to most lists' servers, with jitter. */
export const minTimeoutMs = 150;
/** Answers in the last hour before the p95 is trusted (a self-test run gives three). */
export const minAnswers = 10;

/**
 * The timeout of a look-up on a list with this traffic, at most `maxMs` (DNS_TIMEOUT_MS);
 * undefined while too few answers were measured (the resolver's own timeout applies).
 */
export function listTimeoutMs(traffic: ListTraffic | undefined, maxMs: number): number | undefined {
  if (!traffic || traffic.answers < minAnswers || traffic.p95 === null) return undefined;
  return Math.min(maxMs, Math.max(minTimeoutMs, p95Multiple * traffic.p95));
}

export interface SideStandingsOptions {
  /** Every list of the zone list: those whose key is not set are never asked. */
  zones: readonly DnsblZone[];
  keys: ListKeys;
  /** SELFTEST_INTERVAL_S in ms: a pass counts as recent for two of them and a minute. */
  intervalMs: number;
  /** DNS_TIMEOUT_MS: the longest a look-up on an active list waits. */
  maxTimeoutMs?: number | undefined;
  holdTiming: HoldTiming;
  stats?: Pick<ListStats, 'traffic'> | undefined;
  now: () => number;
}

/** One side of a list that may be asked, with the key its record is kept under (`sideKey`). */
export interface AskableSide {
  zone: DnsblZone;
  side: ListSide;
  key: string;
}

const active: ListGate = { state: 'active' };
/** A pass counts as recent for two intervals (one re-test may get no answer) and a minute. */
const proofTtl = (intervalMs: number) => 2 * intervalMs + 60_000;

export function createSideStandings(options: SideStandingsOptions) {
  const { keys, now } = options;
  /** The lists that may be asked: every list but the keyed ones without their key. */
  const askable = options.zones.filter((zone) => missingKey(zone, keys) === undefined);
  const sides: AskableSide[] = askable.flatMap((zone) =>
    sidesOf(zone).map((side) => ({ zone, side, key: sideKey(zone, side) })),
  );
  const records = new Map<string, ListRecord>(
    sides.map(({ key }) => [key, { positive: false, timeoutsInARow: 0 }]),
  );
  /** When a primary side last proved the resolver honest: the lists without a test entry lean on it. */
  let resolverProvenAt: number | undefined;

  /** A side's record, by its key (`sideKey`) or by its list and side. */
  const recordOf = (zone: DnsblZone | string, side: ListSide = 'primary') =>
    records.get(typeof zone === 'string' ? zone : sideKey(zone, side))!;

  /** Why a keyed list is not asked; undefined for a list that may be. */
  const keyGate = (zone: DnsblZone): { state: 'disabled'; reason: string } | undefined => {
    const needed = missingKey(zone, keys);
    return needed === undefined
      ? undefined
      : { state: 'disabled', reason: missingKeyReason(needed) };
  };

  function proofWindow(at = now()) {
    return {
      now: at,
      ttlMs: proofTtl(options.intervalMs),
      ...(resolverProvenAt !== undefined ? { resolverProvenAt } : {}),
    };
  }

  function standing(zone: DnsblZone | string, side: ListSide = 'primary'): ListStanding {
    return standingOf(recordOf(zone, side), proofWindow());
  }

  let states: Map<string, ListState> | undefined;
  let timeouts: Map<string, number | undefined> | undefined;
  let statesUntil = 0;
  /** A record changed: the states are worked out again at the next question. */
  const forget = () => {
    states = undefined;
  };

  function refresh(): void {
    const at = now();
    if (states && at < statesUntil) return;
    const window = proofWindow(at);
    states = new Map(sides.map(({ key }) => [key, stateOf(recordOf(key), window)]));
    const { maxTimeoutMs } = options;
    timeouts = new Map(
      sides.map(({ zone, side, key }) => [
        key,
        maxTimeoutMs === undefined
          ? undefined
          : listTimeoutMs(options.stats?.traffic(sideZone(zone, side)), maxTimeoutMs),
      ]),
    );
    statesUntil = at + 1000;
  }

  function state(zone: DnsblZone | string, side: ListSide = 'primary'): ListState {
    refresh();
    return states!.get(typeof zone === 'string' ? zone : sideKey(zone, side))!;
  }

  /** An active side's gate, with its look-up timeout once its latency is known. */
  function activeGate(zone: DnsblZone, side: ListSide): ListGate {
    refresh();
    const timeoutMs = timeouts!.get(sideKey(zone, side));
    return timeoutMs === undefined ? active : { state: 'active', timeoutMs };
  }

  return {
    askable,
    sides,
    record: recordOf,
    state,

    /** The states of some sides now, to tell afterwards which came back or were caught lying. */
    snapshot(keysOf: readonly string[]): Map<string, ListState> {
      return new Map(keysOf.map((key) => [key, state(key)]));
    },

    forget,

    /** A run's verdicts applied at `at` (the monitor then tells what they changed). */
    apply(run: SelfTestRun, at: number): void {
      for (const verdict of run.verdicts) {
        applyVerdict(
          recordOf(sideKey(verdict.zone, verdict.side)),
          verdict,
          at,
          options.holdTiming,
        );
        // The resolver is proven by a primary side: the lists without a test entry lean on it.
        if (verdict.state === 'passed' && verdict.positive && verdict.side === 'primary') {
          resolverProvenAt = at;
        }
      }
    },

    /** A run in which no list proved the resolver honest: the proof is withdrawn at once. */
    withdrawResolverProof(): void {
      resolverProvenAt = undefined;
      forget();
    },

    /** A check's look-up on a side; true when it put the side on hold. */
    lookedUp(zone: DnsblZone, side: ListSide, timedOut: boolean, holdAfter: number): boolean {
      const record = records.get(sideKey(zone, side));
      if (!record) return false;
      const held = recordLookup(record, timedOut, now(), holdAfter, options.holdTiming);
      if (held) forget();
      return held;
    },

    /** A held side's probe: a real look-up heard from the list ends the hold. */
    probed(key: string, heard: boolean, at: number): void {
      if (heard) endHold(recordOf(key), at);
      else probeMissed(recordOf(key), at);
    },

    /** Whether a side may be asked now, and how long a look-up on it waits. */
    gate(zone: DnsblZone, side: ListSide = 'primary'): ListGate {
      const keyed = keyGate(zone);
      if (keyed) return keyed;
      if (state(zone, side) === 'active') return activeGate(zone, side);
      const { state: current, reason } = standing(zone, side);
      return current === 'active' ? activeGate(zone, side) : { state: current, reason };
    },

    /** A side as the `GET /lists` projection reads it. */
    reading(zone: DnsblZone, side: ListSide): SideReading {
      const keyed = keyGate(zone);
      return {
        standing: keyed ?? standing(zone, side),
        record: keyed ? undefined : recordOf(zone, side),
        traffic: options.stats?.traffic(sideZone(zone, side)),
      };
    },

    /** Whether a side still awaits its first proof (no pass yet, no failure). */
    awaitingFirstProof(): boolean {
      return sides.some(({ key }) => {
        const record = recordOf(key);
        return record.failure === undefined && record.provenAt === undefined;
      });
    },

    /** The lists whose test entry may confirm a check: proven, documented, answering lately. */
    canaries(): DnsblZone[] {
      return askable.filter(
        (zone) =>
          positiveEntry(zone) !== undefined &&
          recordOf(zone).positive &&
          recordOf(zone).timeoutsInARow === 0 &&
          state(zone) === 'active',
      );
    },
  };
}
