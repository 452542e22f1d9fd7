import type { DnsOutcome, QueryOptions, RecordData, RecordType, Resolver } from './resolver.js';

/**
 * A cap on the queries in flight under each of some zones (the blocklists), for a transport with
 * few slots: on Workers a request holds at most six connections (docs/edge.md), and a list that
 * has stopped answering would otherwise fill all six with queries that each wait out their
 * timeout, while every other list of a pool check waits behind them. Capped, such a list holds
 * `maxPerZone` slots and the others keep answering.
 *
 * It sits above the global in-flight cap (src/dns/concurrency.ts), so a query waiting for its
 * zone holds no global slot. A query whose `signal` aborts while it waits answers `timeout` at
 * once. Names under no listed zone pass untouched.
 */

export interface ZoneLimitOptions {
  /** The zones capped, as queried (`zen.spamhaus.org`, a DQS name). */
  zones: readonly string[];
  maxPerZone: number;
}

const timedOut = { status: 'timeout' } as const;

type AnyOutcome = DnsOutcome<RecordData[RecordType]>;

interface Waiting {
  run(): void;
  abandon(): void;
}

interface ZoneLane {
  active: number;
  waiting: Waiting[];
}

export function withZoneLimit(inner: Resolver, options: ZoneLimitOptions): Resolver {
  const lanes = new Map(
    options.zones.map((zone) => [zone, { active: 0, waiting: [] } as ZoneLane]),
  );

  /** The lane of the longest listed zone the name is under, if any. */
  function laneOf(name: string): ZoneLane | undefined {
    for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
      const lane = lanes.get(name.slice(dot + 1));
      if (lane) return lane;
    }
    return undefined;
  }

  function release(lane: ZoneLane): void {
    lane.active--;
    const next = lane.waiting.shift();
    next?.run();
  }

  return {
    query<T extends RecordType>(
      name: string,
      type: T,
      queryOptions?: QueryOptions,
    ): Promise<DnsOutcome<RecordData[T]>> {
      const lane = laneOf(name);
      if (!lane) return inner.query(name, type, queryOptions);
      const start = (): Promise<AnyOutcome> => {
        lane.active++;
        const pending = inner.query(name, type, queryOptions);
        pending.then(
          () => release(lane),
          () => release(lane),
        );
        return pending;
      };
      if (lane.active < options.maxPerZone) return start() as Promise<DnsOutcome<RecordData[T]>>;
      const signal = queryOptions?.signal;
      if (signal?.aborted) return Promise.resolve(timedOut);
      return new Promise<AnyOutcome>((resolve, reject) => {
        const entry: Waiting = {
          run: () => {
            signal?.removeEventListener('abort', entry.abandon);
            start().then(resolve, reject);
          },
          abandon: () => {
            const at = lane.waiting.indexOf(entry);
            if (at !== -1) lane.waiting.splice(at, 1);
            resolve(timedOut);
          },
        };
        signal?.addEventListener('abort', entry.abandon, { once: true });
        lane.waiting.push(entry);
      }) as Promise<DnsOutcome<RecordData[T]>>;
    },
  };
}
