import type { DnsStatus, Resolver } from '../../dns/index.js';
import type { ListGate } from './dnsbl.js';
import { heardFromList, probeRealLookup } from './hold-probe.js';
import type { ListHealth, ListState, ServiceReadiness } from './list-health-schemas.js';
import type { ListKeys } from './list-keys.js';
import { type ListSide, sideKey, sidesOf } from './list-sides.js';
import type { ListStats } from './list-stats.js';
import { listHealth } from './lists-projection.js';
import {
  type ResolverDiagnosis,
  type ResolverSetting,
  answeringResolverAdvice,
  diagnose,
  explain,
} from './resolver-diagnosis.js';
import { type ResolverConfirmation, confirmationOf, unconfirmed } from './resolver-confirmation.js';
import { type SelfTestRun, probeTestEntry, selfTestZones } from './self-test.js';
import { type AskableSide, createSideStandings } from './side-standings.js';
import type { DnsblZone } from './zones.js';

/**
 * Keeps every list's standing between self-tests (side-standings.ts) and decides whether the
 * service can answer at all: it is configured while at least one list is proven honest. Re-tests
 * every list on an interval, probes lists on hold until they answer a real look-up, times each
 * active list's look-ups by its own latency (side-standings.ts), and confirms the resolver during
 * each check (resolver-confirmation.ts), so a resolver that turns dishonest is caught by the next
 * check or the next run, whichever comes first. A keyed list whose key is not set is disabled and never
 * asked. `GET /lists` is a projection of its state (lists-projection.ts).
 *
 * The monitor keeps no timer: it says when it next has work (`wakeAt()`) and does it when called
 * (`tick()`). Each platform schedules that: src/node/monitor-timer.ts on Node, the monitor's
 * Durable Object alarm on Workers (src/workers/monitor-object.ts).
 */

/**
 * What a check needs to know of the lists, from wherever the monitor lives: in the same process
 * (the zone monitor itself, on Node) or elsewhere (a replica of it, on Workers: see
 * monitor-replica.ts and docs/edge.md).
 */
export interface ListVerdicts {
  /** Whether a list side may be asked now; its IPv6 side is proven on its own. */
  gate(zone: DnsblZone, side?: ListSide): ListGate;
  /** The outcome of a check's look-up on a list side (not of probes): feeds the hold rule. */
  recordLookup(zone: DnsblZone, status: DnsStatus, side?: ListSide): void;
  /** Whether checks may run now (at least one list proven honest), and if not, why. */
  readiness(): ServiceReadiness;
  /**
   * Grows whenever results made before may no longer be the best answer: a list or the resolver
   * was caught answering falsely, or a list came back. The result cache keys on it.
   */
  readonly epoch: number;
  /** Asks one proven list's documented test entry, past every cache, alongside a check. */
  confirm(): ResolverConfirmation;
  /** Every list of the zone list as `GET /lists` shows it (lists-projection.ts). */
  lists(): ListHealth[];
}

/** The monitor's verdicts at one moment, as a replica elsewhere reads them. */
export interface MonitorView {
  readiness: ServiceReadiness;
  epoch: number;
  /** Every list side's gate, by side key (list-sides.ts `sideKey`), with its look-up timeout. */
  gates: Record<string, ListGate>;
  lists: ListHealth[];
  /** The zones whose documented test entry may confirm a check now (proven, answering lately). */
  canaries: string[];
}

export interface ZoneMonitor extends ListVerdicts {
  /** A full self-test of every list now (one at a time: a call during a run joins it). */
  run(): Promise<SelfTestRun>;
  /**
   * A check elsewhere (a replica's confirmation) caught the resolver answering a documented test
   * entry falsely: stop answering until a full run says which lists can still be believed.
   */
  suspect(reason: string): void;
  view(): MonitorView;
  /**
   * When the monitor next has work: a full run on its interval (sooner while nothing is proven),
   * or a probe of a list on hold. Whoever schedules it (src/node/monitor-timer.ts on Node, a
   * Durable Object's alarm on Workers) calls `tick()` then.
   */
  wakeAt(): number;
  /** Does what is due: a full run, or else a probe of the lists on hold whose turn it is. */
  tick(): Promise<void>;
  /**
   * Hears whenever `wakeAt()` may have moved sooner (a list went on hold, a run finished), so
   * whoever schedules the monitor arms again.
   */
  onScheduleChange(listener: () => void): void;
}

export interface ZoneMonitorOptions {
  resolver: Resolver;
  /** Every list of the zone list: those whose key is not set are disabled, never asked. */
  zones: readonly DnsblZone[];
  /** The list keys configured (list-keys.ts); never shown in any output. */
  keys?: ListKeys;
  /** SELFTEST_INTERVAL_S in ms: also the longest wait between probes of a list on hold. */
  intervalMs: number;
  /** How long a list on hold first waits between probes (default 2 s; doubled on each repeat). */
  holdProbeMs?: number;
  /** DNS_TIMEOUT_MS: the longest a look-up on an active list waits (side-standings.ts). */
  maxTimeoutMs?: number;
  /** Look-ups in a row without an answer that put a list on hold. */
  holdAfterTimeouts?: number;
  /** Names the resolver in reasons: `the one DNS_SERVERS names`. */
  resolverName?: string;
  /** The variable the reasons tell the operator to set (DNS_SERVERS unless given). */
  resolverSetting?: ResolverSetting;
  stats?: Pick<ListStats, 'traffic'>;
  now?: () => number;
  /**
   * Answers cached until now are suspect: a list or the resolver was caught answering falsely, or
   * a list comes back after such a lie (answers of checks that were under way may have been cached
   * since).
   */
  onLie?: () => void;
  onRun?: (run: SelfTestRun) => void;
  /** Readiness changed (configured or its reason). */
  onReadiness?: (readiness: ServiceReadiness) => void;
}

const defaults = { holdProbeMs: 2000, holdAfterTimeouts: 3 };
/** While nothing is proven, or a list awaits its first proof, runs come at least this often. */
const unprovenRetryMs = 30_000;

export function createZoneMonitor(options: ZoneMonitorOptions): ZoneMonitor {
  const { resolver, zones } = options;
  const keys = options.keys ?? {};
  const now = options.now ?? Date.now;
  const holdAfter = options.holdAfterTimeouts ?? defaults.holdAfterTimeouts;
  const resolverName = options.resolverName ?? 'the configured resolver';
  const resolverSetting = options.resolverSetting ?? 'DNS_SERVERS';
  const standings = createSideStandings({
    zones,
    keys,
    intervalMs: options.intervalMs,
    maxTimeoutMs: options.maxTimeoutMs,
    holdTiming: {
      firstProbeMs: options.holdProbeMs ?? defaults.holdProbeMs,
      maxProbeMs: Math.max(options.intervalMs, options.holdProbeMs ?? defaults.holdProbeMs),
    },
    stats: options.stats,
    now,
  });
  const { askable, sides, state } = standings;
  let diagnosis: ResolverDiagnosis = { kind: 'unproven' };
  /** A check's confirmation caught the resolver lying; cleared by the run it started. */
  let suspicion: string | undefined;
  let epoch = 0;
  let inFlight: Promise<SelfTestRun> | undefined;
  const probing = new Set<string>();
  let canaryTurn = 0;
  /** When the next full run is due; undefined before the first: due at once. */
  let nextRunAt: number | undefined;
  let lastReadiness: ServiceReadiness | undefined;

  function readiness(): ServiceReadiness {
    if (suspicion !== undefined) return { configured: false, reason: suspicion };
    if (sides.some(({ key }) => state(key) === 'active')) return { configured: true };
    const explained = explain(diagnosis, resolverName, resolverSetting);
    if (explained !== undefined) return { configured: false, reason: explained };
    const held = sides.every(({ key }) => state(key) === 'on_hold');
    return {
      configured: false,
      reason: held
        ? `No blocklist answers (every list is on hold): the DNS resolver (${resolverName}) or ` +
          `the lists are unreachable. ${answeringResolverAdvice(resolverSetting)}`
        : (explain({ kind: 'unproven' }, resolverName, resolverSetting) ?? ''),
    };
  }

  function noteReadiness(): void {
    const current = readiness();
    if (
      lastReadiness !== undefined &&
      (lastReadiness.configured !== current.configured || lastReadiness.reason !== current.reason)
    ) {
      options.onReadiness?.(current);
    }
    lastReadiness = current;
  }

  /** A lie was caught and the answers it may have left in caches are not yet all forgotten. */
  let liedSinceCleared = false;

  function caughtLying(): void {
    epoch++;
    liedSinceCleared = true;
    options.onLie?.();
  }

  /**
   * What changed since `before`: a side that was active and now fails its self-test was caught
   * lying; a side that comes back (from hold or disabled) makes results cached without it
   * incomplete. Either way the epoch moves on.
   */
  function settle(before: ReadonlyMap<string, ListState>): void {
    standings.forget();
    let lied = false;
    let cameBack = false;
    for (const [key, was] of before) {
      if (was === 'active' && standings.record(key).failure !== undefined) lied = true;
      if (was !== 'active' && state(key) === 'active' && lastReadiness !== undefined)
        cameBack = true;
    }
    if (lied) caughtLying();
    else if (cameBack) {
      epoch++;
      // Checks already under way when the lie was caught may have cached its answers since: a
      // list coming back must not read them.
      if (liedSinceCleared) {
        liedSinceCleared = false;
        options.onLie?.();
      }
    }
  }

  async function fullRun(): Promise<SelfTestRun> {
    const run = await selfTestZones(resolver, askable, keys);
    const before = standings.snapshot(
      run.verdicts.map((verdict) => sideKey(verdict.zone, verdict.side)),
    );
    standings.apply(run, now());
    settle(before);
    // Lists without a test entry of their own lean on the others: a run in which no list could
    // prove the resolver honest withdraws that proof at once.
    if (run.tally.provenLists === 0) standings.withdrawResolverProof();
    diagnosis = diagnose(run.tally);
    suspicion = undefined;
    nextRunAt = now() + runDelay();
    options.onRun?.(run);
    noteReadiness();
    scheduleChanged();
    return run;
  }

  /** An interval, or at most 30 s while nothing is proven or a list awaits its first proof. */
  function runDelay(): number {
    return readiness().configured && !standings.awaitingFirstProof()
      ? options.intervalMs
      : Math.min(options.intervalMs, unprovenRetryMs);
  }

  function run(): Promise<SelfTestRun> {
    inFlight ??= fullRun().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  /**
   * One list side on hold asked again: a real look-up (hold-probe.ts) and its whole self-test,
   * together. It comes back once the real look-up is answered; its test entries alone do not
   * bring it back, and the self-test says whether it is still honest.
   */
  async function probeHeld({ zone, side, key }: AskableSide): Promise<void> {
    probing.add(key);
    try {
      const [probe, lookup] = await Promise.all([
        selfTestZones(resolver, [zone], keys, side),
        probeRealLookup(resolver, zone, side, keys),
      ]);
      const at = now();
      const before = standings.snapshot([key]);
      standings.apply(probe, at);
      standings.probed(key, heardFromList(lookup), at);
      settle(before);
      noteReadiness();
    } finally {
      probing.delete(key);
    }
  }

  /** The list sides on hold that no probe is asking yet (a side that failed is disabled). */
  function heldSides(): AskableSide[] {
    return sides.filter(({ key }) => !probing.has(key) && state(key) === 'on_hold');
  }

  /** The held sides whose probe is due at `at`. */
  async function probeHeldLists(at: number): Promise<void> {
    const due = heldSides().filter(({ key }) => (standings.record(key).hold?.probeAt ?? 0) <= at);
    await Promise.all(due.map((held) => probeHeld(held).catch(() => undefined)));
  }

  /** The next list whose test entry confirms a check, in turn. */
  function canaryZone(): DnsblZone | undefined {
    const candidates = standings.canaries();
    if (candidates.length === 0) return undefined;
    canaryTurn = (canaryTurn + 1) % candidates.length;
    return candidates[canaryTurn];
  }

  function confirm(): ResolverConfirmation {
    const zone = canaryZone();
    if (!zone) return unconfirmed;
    // A false answer: the resolver (or this list) just answered a documented entry falsely.
    return confirmationOf(probeTestEntry(resolver, zone, keys), suspect);
  }

  /** Stop answering until a full run says which lists can still be believed. */
  function suspect(reason: string): void {
    if (suspicion !== undefined) return;
    suspicion =
      `The DNS resolver (${resolverName}) stopped answering honestly: ${reason} ` +
      'during a check. Every list is being tested again.';
    caughtLying();
    noteReadiness();
    void run().catch(() => undefined);
  }

  function wakeAt(): number {
    const probes = heldSides().map(({ key }) => standings.record(key).hold?.probeAt ?? 0);
    return Math.min(nextRunAt ?? now(), ...probes);
  }

  async function tick(): Promise<void> {
    const at = now();
    if (nextRunAt === undefined || at >= nextRunAt) {
      // Provisional, so that a run that throws is retried later rather than at once.
      nextRunAt = at + Math.min(options.intervalMs, unprovenRetryMs);
      await run();
      return;
    }
    await probeHeldLists(at);
  }

  const scheduleListeners: (() => void)[] = [];

  function scheduleChanged(): void {
    for (const listener of scheduleListeners) listener();
  }

  function lists(): ListHealth[] {
    return zones.map((zone) => listHealth(zone, (side) => standings.reading(zone, side)));
  }

  return {
    gate: standings.gate,
    recordLookup(zone, status, side = 'primary') {
      if (standings.lookedUp(zone, side, status === 'timeout', holdAfter)) {
        noteReadiness();
        scheduleChanged();
      }
    },
    readiness,
    get epoch() {
      return epoch;
    },
    confirm,
    lists,
    run,
    suspect,
    view: () => ({
      readiness: readiness(),
      epoch,
      gates: Object.fromEntries(
        zones.flatMap((zone) =>
          sidesOf(zone).map((side) => [sideKey(zone, side), standings.gate(zone, side)]),
        ),
      ),
      lists: lists(),
      canaries: standings.canaries().map((zone) => zone.zone),
    }),
    wakeAt,
    tick,
    onScheduleChange: (listener) => scheduleListeners.push(listener),
  };
}
