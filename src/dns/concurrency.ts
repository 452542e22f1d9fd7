import { askResolver, resolverOf } from './asking.js';
import type {
  DnsOutcome,
  OutcomeListener,
  QueryOptions,
  RecordData,
  RecordType,
  Resolver,
} from './resolver.js';
import { createSignalWatches } from './signal-watches.js';

/**
 * A global cap on queries in flight, shared fairly between checks. Without a cap a burst of checks
 * (50 lists each) would put thousands of datagrams on the wire at once, overflow socket buffers and
 * turn into timeouts. Without fairness, one check sending hundreds of queries that are never
 * answered would hold every slot until they timed out, and every other check would wait behind it.
 *
 * - At most `maxInFlight` queries are in flight.
 * - A check (`QueryOptions.check`) holds at most its share of them: `maxInFlight / (checks + 1)`,
 *   never less than `minShare`. The one share left over is room for a check that has just come.
 * - When a slot frees, the checks with waiting queries take turns; one check's queries start first
 *   in, first out. Queries of no check (the self-test) wait in one queue of their own, held by the
 *   global cap only.
 * - A query whose `signal` aborts leaves the queue or, in flight, gives its slot back at once, and
 *   answers `timeout`; the transport below sees the same signal and lets go of the query too.
 */

export interface ConcurrencyOptions {
  maxInFlight: number;
  /** The least a check may hold whatever the number of checks: an IP check asks about this many lists at once. */
  minShare?: number;
}

/** About the number of queries an IP check sends at once (its lists plus PTR and A). */
const defaultMinShare = 32;

const timedOut = { status: 'timeout' } as const;

type AnyOutcome = DnsOutcome<RecordData[RecordType]>;

/** The queries of one check, or of no check. */
interface Lane {
  key: symbol | undefined;
  active: number;
  /** Waiting tickets from `head` on; aborted ones stay until reached and are skipped. */
  queue: Ticket[];
  head: number;
  /** Tickets still waiting in `queue`. */
  waiting: number;
  /** Whether the lane is in the turn order. */
  hasTurn: boolean;
}

/**
 * One query through the cap, from its arrival to its outcome; the listener of the query below it.
 * No closure is made per ticket: tsx (esbuild's keepNames) names each arrow assigned to a field
 * with a defineProperty call, which showed in the profile of uncached checks (docs/benchmarks.md).
 */
class Ticket implements OutcomeListener<RecordData[RecordType]> {
  state: 'waiting' | 'running' | 'done' = 'waiting';

  constructor(
    private readonly limiter: FairLimiter,
    readonly lane: Lane,
    readonly name: string,
    readonly type: RecordType,
    readonly options: QueryOptions | undefined,
    readonly listener: OutcomeListener<RecordData[RecordType]>,
  ) {}

  /** The outcome from below: the slot goes to the next waiting query, then the caller hears it. */
  answered(outcome: AnyOutcome): void {
    if (this.state === 'done') return;
    this.limiter.finish(this);
    this.listener.answered(outcome);
  }

  failed(error: unknown): void {
    if (this.state === 'done') return;
    this.limiter.finish(this);
    this.listener.failed(error);
  }
}

class FairLimiter {
  #active = 0;
  readonly #lanes = new Map<symbol | undefined, Lane>();
  /** Lanes with waiting queries, in the order they take turns. */
  readonly #turns: Lane[] = [];
  /** Whether `#pump` runs: a query answered at once while it starts others must not nest it. */
  #pumping = false;
  /** The unsettled queries given each signal, behind one abort listener per signal. */
  readonly #watches = createSignalWatches<Ticket>((ticket) => this.abandon(ticket));

  constructor(
    readonly inner: Resolver,
    readonly maxInFlight: number,
    readonly minShare: number,
  ) {}

  ask<T extends RecordType>(
    name: string,
    type: T,
    options: QueryOptions | undefined,
    listener: OutcomeListener<RecordData[T]>,
  ): void {
    const signal = options?.signal;
    if (signal?.aborted) {
      listener.answered(timedOut);
      return;
    }
    const lane = this.#laneOf(options?.check);
    const ticket = new Ticket(
      this,
      lane,
      name,
      type,
      options,
      listener as OutcomeListener<RecordData[RecordType]>,
    );
    if (signal) this.#watches.watch(signal, ticket);
    if (lane.waiting === 0 && this.#mayStart(lane)) {
      this.#start(ticket);
      return;
    }
    lane.queue.push(ticket);
    lane.waiting++;
    if (!lane.hasTurn) {
      lane.hasTurn = true;
      this.#turns.push(lane);
    }
  }

  /** A running query settled: its slot goes to the next waiting query. */
  finish(ticket: Ticket): void {
    if (ticket.state !== 'running') return;
    ticket.state = 'done';
    this.#unwatch(ticket);
    this.#release(ticket.lane);
  }

  /** The query's signal aborted: it stops waiting, or gives its slot back, and answers timeout. */
  abandon(ticket: Ticket): void {
    const { state, lane } = ticket;
    if (state === 'done') return;
    ticket.state = 'done';
    this.#unwatch(ticket);
    if (state === 'waiting') {
      lane.waiting--;
      this.#dropIfIdle(lane);
      // A check gone raises every other check's share.
      this.#pump();
    } else {
      this.#release(lane);
    }
    ticket.listener.answered(timedOut);
  }

  #unwatch(ticket: Ticket): void {
    const signal = ticket.options?.signal;
    if (signal) this.#watches.unwatch(signal, ticket);
  }

  #laneOf(key: symbol | undefined): Lane {
    let lane = this.#lanes.get(key);
    if (!lane) {
      lane = { key, active: 0, queue: [], head: 0, waiting: 0, hasTurn: false };
      this.#lanes.set(key, lane);
    }
    return lane;
  }

  #shareOf(lane: Lane): number {
    if (lane.key === undefined) return this.maxInFlight;
    return Math.max(this.minShare, Math.floor(this.maxInFlight / (this.#lanes.size + 1)));
  }

  #mayStart(lane: Lane): boolean {
    return this.#active < this.maxInFlight && lane.active < this.#shareOf(lane);
  }

  #start(ticket: Ticket): void {
    ticket.state = 'running';
    this.#active++;
    ticket.lane.active++;
    try {
      askResolver(this.inner, ticket.name, ticket.type, ticket.options, ticket);
    } catch (error) {
      // Thrown by whoever heard the outcome, not by the resolver: not this cap's to swallow.
      if ((ticket.state as Ticket['state']) === 'done') throw error;
      // A resolver that throws instead of answering must not keep its slot forever.
      ticket.failed(error);
    }
  }

  #release(lane: Lane): void {
    this.#active--;
    lane.active--;
    this.#dropIfIdle(lane);
    this.#pump();
  }

  #dropIfIdle(lane: Lane): void {
    if (lane.active === 0 && lane.waiting === 0 && this.#lanes.get(lane.key) === lane) {
      this.#lanes.delete(lane.key);
    }
  }

  /**
   * Starts waiting queries while slots are free, one lane after another. A query answered at once
   * (a resolver on hold) frees its slot inside `#start`: the loop already running takes it, rather
   * than a nested one per query (thousands deep for a flood of queries).
   */
  #pump(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      let passed = 0;
      while (this.#active < this.maxInFlight && this.#turns.length > passed) {
        const lane = this.#turns.shift()!;
        const ticket =
          lane.waiting > 0 && this.#mayStart(lane) ? this.#nextWaiting(lane) : undefined;
        if (lane.waiting > 0) this.#turns.push(lane);
        else lane.hasTurn = false;
        if (ticket) {
          passed = 0;
          this.#start(ticket);
        } else if (lane.hasTurn) {
          // Over its share: it keeps its turn for when its own queries finish.
          passed++;
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  #nextWaiting(lane: Lane): Ticket | undefined {
    while (lane.head < lane.queue.length) {
      const ticket = lane.queue[lane.head++]!;
      if (ticket.state !== 'waiting') continue;
      lane.waiting--;
      // Its signal aborted, its listener not yet called (slots freed by an abort are handed out
      // while the same abort still runs its listeners): it must not reach the wire.
      if (ticket.options?.signal?.aborted) {
        ticket.state = 'done';
        this.#unwatch(ticket);
        ticket.listener.answered(timedOut);
        continue;
      }
      if (lane.head > 1024 && lane.head * 2 > lane.queue.length) {
        lane.queue = lane.queue.slice(lane.head);
        lane.head = 0;
      }
      return ticket;
    }
    return undefined;
  }
}

export function withConcurrencyLimit(
  inner: Resolver,
  maxInFlight: number,
  options: Omit<ConcurrencyOptions, 'maxInFlight'> = {},
): Resolver {
  const limiter = new FairLimiter(inner, maxInFlight, options.minShare ?? defaultMinShare);
  return resolverOf((name, type, queryOptions, listener) =>
    limiter.ask(name, type, queryOptions, listener),
  );
}
