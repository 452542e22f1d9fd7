import type { DnsStatus, QueryObserver, RecordType, Resolver } from '../../dns/index.js';
import type { ListGate } from './dnsbl.js';
import type { ListKeys } from './list-keys.js';
import type { ListHealth, ServiceReadiness } from './list-health-schemas.js';
import { type ListSide, sideKey } from './list-sides.js';
import { probeTestEntry } from './self-test.js';
import { type ResolverConfirmation, confirmationOf, unconfirmed } from './resolver-confirmation.js';
import type { ListVerdicts, MonitorView } from './zone-monitor.js';
import type { DnsblZone } from './zones.js';

/**
 * The list verdicts of a zone monitor that lives elsewhere, for a runtime whose instances share no
 * memory (Workers: every isolate holds a replica of the one monitor a Durable Object runs, see
 * docs/edge.md). The replica reads the monitor's view at most once per `maxAgeMs`, answers every
 * check from it, sends back what checks saw (look-ups for the hold rule, queries on the wire for
 * GET /lists), and confirms the resolver beside each check itself, over its own resolver: a lie
 * it catches stops this replica at once and the monitor with it.
 */

/** How the replica reaches the monitor. */
export interface MonitorRemote {
  /** The monitor's view now; the monitor runs its first self-test before answering. */
  view(): Promise<MonitorView>;
  /** What checks here saw since the last report. */
  report(report: MonitorReport): Promise<void>;
  /** A check here caught the resolver answering a documented test entry falsely. */
  suspect(reason: string): Promise<void>;
}

export interface MonitorReport {
  /** Check look-ups, in the order they ended: three timeouts in a row put a list side on hold. */
  lookups: { zone: string; side: ListSide; status: DnsStatus }[];
  /** Queries that reached the wire: per-list answers, timeouts and latency. */
  observations: { name: string; type: RecordType; status: DnsStatus; ms: number }[];
}

export interface MonitorReplica extends ListVerdicts {
  /** Reads the monitor's view when the one held is older than `maxAgeMs` (or stale). */
  refresh(): Promise<void>;
  /** Sends what checks saw since the last flush; a failure is dropped, never thrown. */
  flush(): Promise<void>;
  /** The resolver's observer (`withObserver`): queries on the wire, reported with the look-ups. */
  observe: QueryObserver;
}

export interface MonitorReplicaOptions {
  remote: MonitorRemote;
  zones: readonly DnsblZone[];
  /** The resolver checks use, for the confirmation beside each check. */
  resolver: Resolver;
  /** The list keys configured (list-keys.ts). */
  keys?: ListKeys;
  /** How long a view answers before the next request reads a fresh one. */
  maxAgeMs?: number;
  now?: () => number;
}

/** A report carries at most this many entries of each kind; more are dropped, never queued. */
const maxReportEntries = 5000;

export function createMonitorReplica(options: MonitorReplicaOptions): MonitorReplica {
  const { remote, zones, resolver } = options;
  const keys = options.keys ?? {};
  const maxAgeMs = options.maxAgeMs ?? 1000;
  const now = options.now ?? Date.now;
  const zoneByName = new Map(zones.map((zone) => [zone.zone, zone]));
  let view: MonitorView | undefined;
  let fetchedAt = 0;
  let fetching: Promise<void> | undefined;
  /** Why the monitor could not be read, while no view was ever read. */
  let unreachable: string | undefined;
  /** A lie this replica caught, until the next view (read after the monitor heard of it). */
  let suspicion: string | undefined;
  /** The monitor being told of that lie: a view read before it has heard would not show it. */
  let suspecting: Promise<void> | undefined;
  let canaryTurn = 0;
  let lookups: MonitorReport['lookups'] = [];
  let observations: MonitorReport['observations'] = [];

  async function read(): Promise<void> {
    try {
      view = await remote.view();
      fetchedAt = now();
      unreachable = undefined;
      suspicion = undefined;
    } catch (error) {
      // An older view goes on answering; without one, the service says why it cannot.
      if (!view) unreachable = `The list monitor cannot be reached: ${String(error)}`;
    }
  }

  function readiness(): ServiceReadiness {
    if (suspicion !== undefined) return { configured: false, reason: suspicion };
    if (view) return view.readiness;
    return {
      configured: false,
      reason: unreachable ?? 'The lists have not been tested yet: the first self-test is running.',
    };
  }

  function confirm(): ResolverConfirmation {
    const candidates = (view?.canaries ?? []).flatMap((name) => zoneByName.get(name) ?? []);
    if (candidates.length === 0) return unconfirmed;
    canaryTurn = (canaryTurn + 1) % candidates.length;
    const zone = candidates[canaryTurn]!;
    return confirmationOf(probeTestEntry(resolver, zone, keys), (reason) => {
      if (suspicion !== undefined) return;
      suspicion =
        `The DNS resolver stopped answering honestly: ${reason} during a check. ` +
        'Every list is being tested again.';
      // The next request reads the monitor's view again once it has heard of the lie.
      suspecting = remote.suspect(reason).catch(() => undefined);
    });
  }

  const notTested: ListGate = { state: 'disabled', reason: 'not tested yet' };

  return {
    async refresh() {
      if (view && suspicion === undefined && now() - fetchedAt < maxAgeMs) return;
      fetching ??= (async () => {
        await suspecting;
        await read();
      })().finally(() => {
        fetching = undefined;
      });
      await fetching;
    },
    async flush() {
      if (lookups.length === 0 && observations.length === 0) return;
      const report = { lookups, observations };
      lookups = [];
      observations = [];
      await remote.report(report).catch(() => undefined);
    },
    observe(name, type, status, ms) {
      if (observations.length < maxReportEntries) observations.push({ name, type, status, ms });
    },
    gate: (zone, side = 'primary') => view?.gates[sideKey(zone, side)] ?? notTested,
    recordLookup(zone, status, side = 'primary') {
      if (lookups.length < maxReportEntries) lookups.push({ zone: zone.zone, side, status });
    },
    readiness,
    get epoch() {
      return (view?.epoch ?? 0) + (suspicion === undefined ? 0 : 1);
    },
    confirm,
    lists: (): ListHealth[] => view?.lists ?? [],
  };
}
