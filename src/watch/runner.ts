import { type CheckStepDeps, runCheckStep } from './check-step.js';
import { type DeliveryStepDeps, runDeliveryStep } from './delivery-step.js';
import { deliveryLeaseMs, queues, type WatchLimits } from './model/index.js';

/**
 * What runs watches: each `tick()` claims the due watches and due deliveries from the store
 * (docs/watch-engine.md, "Claims and leases") and runs them. Claims are atomic in the store, so any
 * number of runners (WORKERS, several processes on one SQLite file or one Redis) share the work
 * and each due item runs in one of them. What drives the ticks is the runtime's: a timer on Node
 * (src/node/watch-timer.ts).
 */

export interface RunnerOptions {
  /** Watches checked at once by this runner. */
  maxChecks: number;
  /** Deliveries in flight at once by this runner. */
  maxDeliveries: number;
  /**
   * How long a claimed watch stays the claimer's: past it, a claimer that died has let it go.
   * Far longer than a check takes (CHECK_DEADLINE_MS).
   */
  checkLeaseMs: number;
  /** The same for a delivery: longer than WEBHOOK_TIMEOUT_MS. */
  deliveryLeaseMs: number;
}

/**
 * How much one runner takes on at once and how long its claims last: a claimed watch's lease is
 * far longer than a check takes (CHECK_DEADLINE_MS), a delivery's is `deliveryLeaseMs`.
 */
export function runnerSizes(limits: Pick<WatchLimits, 'webhookTimeoutMs'>): RunnerOptions {
  return {
    maxChecks: 128,
    maxDeliveries: 32,
    checkLeaseMs: 120_000,
    deliveryLeaseMs: deliveryLeaseMs(limits.webhookTimeoutMs),
  };
}

export interface TickReport {
  checks: number;
  deliveries: number;
  /** Whether a queue gave all this runner could take: more may be due already. */
  full: boolean;
}

/** The watches one tick claimed for checks, and when (its `now`, from which their lease runs). */
export interface CheckClaims {
  at: number;
  watchIds: string[];
}

/**
 * For a driver that keeps what a tick claimed in storage that outlives the runner's process (the
 * Workers watch clock, whose object's storage survives a restart), to hand back the claims of a
 * tick that never ended.
 */
export interface TickOptions {
  /**
   * The claims of a tick that died before its checks ended (its process was stopped or killed):
   * made due now, before this tick claims, instead of when their lease runs out. Once the lease
   * is over they are left alone: another runner may hold them by now.
   */
  orphaned?: CheckClaims;
  /** Hears what this tick claimed, before any of it is checked. */
  onClaimed?: (claims: CheckClaims) => Promise<void>;
}

export interface WatchRunner {
  /** Claims what is due and runs it; resolves when that work is done. */
  tick(options?: TickOptions): Promise<TickReport>;
  /**
   * Claims what is due and starts it: resolves once claimed, with `done` settling when the work
   * has run. A timer starts the next claim without waiting for slow receivers.
   */
  start(options?: TickOptions): Promise<TickReport & { done: Promise<void> }>;
  /** Settles when every piece of work started so far has run. */
  settled(): Promise<void>;
  /** The earliest future due time this runner has put in a queue, if any. */
  nextDueAt(now: number): number | undefined;
  /** Asks whatever drives the ticks to tick now (new work was queued). */
  wake(): void;
  onWake(listener: () => void): void;
}

/** What both steps run on; the runner adds where they tell it of the due times they put. */
export type RunnerDeps = Omit<CheckStepDeps & DeliveryStepDeps, 'onScheduled'> & {
  /**
   * Whether this process can check now (its service is configured: the lists proved to answer
   * through its resolver). While it cannot, it claims no watch: a check it ran would record
   * nothing and put the watch off one interval, so a runner that can check, sharing the store,
   * would never find it due (docs/watch-engine.md, "Claims and leases"). Deliveries are claimed
   * still.
   */
  canCheck?: () => boolean;
};

export function createWatchRunner(deps: RunnerDeps, options: RunnerOptions): WatchRunner {
  let checksInFlight = 0;
  let deliveriesInFlight = 0;
  const running = new Set<Promise<void>>();
  const scheduled = new Set<number>();
  const wakeListeners: (() => void)[] = [];
  const stepDeps = { ...deps, onScheduled: (dueAt: number) => scheduled.add(dueAt) };

  /** Runs one step, logging (not throwing) a failure: its lease brings the item back. */
  function run(step: () => Promise<void>, what: string, id: string, release: () => void): void {
    const work = step()
      .catch((error: unknown) => {
        deps.log('error', `watch ${what} failed`, { id, error: String(error) });
      })
      .finally(() => {
        release();
        running.delete(work);
      });
    running.add(work);
  }

  async function start(
    tickOptions: TickOptions = {},
  ): Promise<TickReport & { done: Promise<void> }> {
    const now = deps.clock().getTime();
    // A check that finished after all only comes again early; one that died waits for no lease.
    const { orphaned } = tickOptions;
    if (orphaned && now < orphaned.at + options.checkLeaseMs) {
      await Promise.all(orphaned.watchIds.map((id) => deps.store.putDue(queues.checks, id, now)));
    }
    const checkRoom = deps.canCheck?.() === false ? 0 : options.maxChecks - checksInFlight;
    const deliveryRoom = options.maxDeliveries - deliveriesInFlight;
    const [checks, deliveries] = await Promise.all([
      checkRoom > 0 ? deps.store.claimDue(queues.checks, now, checkRoom, options.checkLeaseMs) : [],
      deliveryRoom > 0
        ? deps.store.claimDue(queues.deliveries, now, deliveryRoom, options.deliveryLeaseMs)
        : [],
    ]);
    if (tickOptions.onClaimed) {
      try {
        await tickOptions.onClaimed({ at: now, watchIds: checks.map((claim) => claim.id) });
      } catch (error) {
        // Unrecorded, a claim that dies is only left to its lease.
        deps.log('error', 'watch claims not recorded', { error: String(error) });
      }
    }
    const before = new Set(running);
    for (const claim of checks) {
      checksInFlight++;
      run(
        () => runCheckStep(stepDeps, claim),
        'check',
        claim.id,
        () => checksInFlight--,
      );
    }
    for (const claim of deliveries) {
      deliveriesInFlight++;
      run(
        () => runDeliveryStep(stepDeps, claim),
        'delivery',
        claim.id,
        () => deliveriesInFlight--,
      );
    }
    const started = [...running].filter((work) => !before.has(work));
    return {
      checks: checks.length,
      deliveries: deliveries.length,
      full:
        (checkRoom > 0 && checks.length === checkRoom) ||
        (deliveryRoom > 0 && deliveries.length === deliveryRoom),
      done: Promise.all(started).then(() => undefined),
    };
  }

  return {
    start,
    async tick(tickOptions) {
      const { done, ...report } = await start(tickOptions);
      await done;
      return report;
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
    nextDueAt(now) {
      let earliest: number | undefined;
      for (const at of scheduled) {
        if (at <= now) scheduled.delete(at);
        else if (earliest === undefined || at < earliest) earliest = at;
      }
      return earliest;
    },
    wake: () => {
      for (const listener of wakeListeners) listener();
    },
    onWake: (listener) => wakeListeners.push(listener),
  };
}
