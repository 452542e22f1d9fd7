import type { Logger } from '../lib/index.js';
import type { DueClaim, Store } from '../store/index.js';
import { awaitsConfirmation, isChange, type Recheck, recordObservation } from './kinds/index.js';
import {
  changeEventType,
  confirmingCheckAt,
  defaultConfirmations,
  enqueueDeliveries,
  hasEnded,
  type LinksOf,
  maxHistory,
  nextCheckAt,
  pendingDelivery,
  type QueueRules,
  queues,
  type RandomBytes,
  releasePlaces,
  type WatchConfig,
  type WatchRecords,
  type WatchState,
  watchEvent,
} from './model/index.js';
import { stampSince } from './timeline/index.js';

/**
 * One due watch, claimed from the queue by this process (docs/watch-engine.md, "Re-checks"): checked
 * afresh, what changed recorded in its state with its events' deliveries, and put back in the
 * queue one interval on. A deleted or ended watch leaves the queue instead. A check that cannot be
 * trusted records nothing and waits for the next interval.
 */

export interface CheckStepDeps {
  store: Store;
  records: WatchRecords;
  recheck: Recheck;
  links: LinksOf;
  clock: () => Date;
  randomBytes: RandomBytes;
  log: Logger;
  /** WATCH_MIN_INTERVAL_S: a change awaiting confirmation is checked again within it. */
  minIntervalS: number;
  /** The cap on a watch's pending deliveries, and who hears of the ones it drops. */
  queueRules: QueueRules;
  /** Hears every due time this process puts, so its timer can wake for the earliest. */
  onScheduled: (dueAt: number) => void;
  /** Hears how late each check started after its due time (the metrics' due lag). */
  onChecked?: (lagMs: number) => void;
}

export async function runCheckStep(deps: CheckStepDeps, claim: DueClaim): Promise<void> {
  const { store, records } = deps;
  const watch = await records.config(claim.id);
  if (!watch || hasEnded(watch, deps.clock().getTime())) {
    await store.removeDue(queues.checks, claim.id);
    // An ended watch gives its places under the caps back now (they would expire with it anyway).
    if (watch) await releasePlaces(store, watch);
    return;
  }
  let state = await records.state(watch.id);
  if (state && state.outbox.length > 0) state = await flushOutbox(deps, watch, state);
  /**
   * Puts the watch back in the queue one interval on, or soon while a change awaits its
   * confirming checks: the end of this claim's lease.
   */
  const reschedule = async (
    now: number,
    next = nextCheckAt(claim.dueAt, watch.interval_s, now),
  ) => {
    await store.putDue(queues.checks, watch.id, next);
    deps.onScheduled(next);
  };
  if (watch.paused) return reschedule(deps.clock().getTime());
  const started = deps.clock().getTime();
  deps.onChecked?.(started - claim.dueAt);
  const outcome = await deps.recheck(watch, state);
  if (!outcome.ok) {
    deps.log('info', 'watch check not recorded', { watch: watch.id, reason: outcome.reason });
    return reschedule(deps.clock().getTime());
  }
  const at = deps.clock();
  // How late the check started, what the runner is judged by (docs/watches.md), and how long
  // the lists took to answer.
  deps.log('debug', 'watch checked', {
    watch: watch.id,
    lag_ms: started - claim.dueAt,
    check_ms: at.getTime() - started,
  });
  const confirmations = watch.confirmations ?? defaultConfirmations;
  const heard = recordObservation(state, outcome.observation, confirmations);
  // Each listing keeps the time it was first recorded (docs/watches.md, "Listed since").
  const known = {
    ...heard.known,
    facts: stampSince(state?.facts, heard.known.facts, at.toISOString()),
  };
  const { change } = heard;
  const { status } = outcome.observation;
  const reported = state !== undefined && isChange(change);
  const history = state?.history ?? [];
  const outbox = [];
  if (reported && watch.webhook && !(await records.webhookStatus(watch.id)).paused) {
    const event = watchEvent(changeEventType(change), watch, deps.links(watch), status, at, change);
    outbox.push(pendingDelivery(watch.id, event, deps.randomBytes, at.getTime()));
  }
  // An e-mail alert too, to a confirmed address only (docs/watches.md, "E-mail"), whatever the
  // webhook's pause.
  if (reported && watch.email?.confirmed) {
    const event = watchEvent(changeEventType(change), watch, deps.links(watch), status, at, change);
    outbox.push({
      ...pendingDelivery(watch.id, event, deps.randomBytes, at.getTime()),
      email: { to: watch.email.address, kind: 'alert' as const },
    });
  }
  const next = awaitsConfirmation(known)
    ? confirmingCheckAt(at.getTime(), watch.interval_s, deps.minIntervalS)
    : nextCheckAt(claim.dueAt, watch.interval_s, at.getTime());
  // A change not yet confirmed is shown to no one: the badge and the view keep the last
  // confirmed status until it is (docs/watches.md, "Confirmed changes").
  const shown = !reported && awaitsConfirmation(known) && state ? state.status : status;
  const recorded: WatchState = {
    ...known,
    checked_at: at.toISOString(),
    next_check_at: new Date(next).toISOString(),
    status: shown,
    ...(outcome.resolvesTo ? { resolves_to: outcome.resolvesTo } : {}),
    history: reported
      ? [
          { at: at.toISOString(), ...change, verdict: status.verdict, score: status.score },
          ...history,
        ].slice(0, maxHistory)
      : history,
    outbox,
  };
  // The state with its outbox is the commit point: from here the events are not lost.
  await records.putState(watch, recorded);
  if (outbox.length > 0) await flushOutbox(deps, watch, recorded);
  await reschedule(at.getTime(), next);
}

/** Hands the outbox's deliveries to the delivery queue, then empties it. */
async function flushOutbox(
  deps: CheckStepDeps,
  watch: WatchConfig,
  state: WatchState,
): Promise<WatchState> {
  const now = deps.clock().getTime();
  await enqueueDeliveries(deps.store, deps.records, state.outbox, now, deps.queueRules);
  deps.onScheduled(now);
  const flushed = { ...state, outbox: [] };
  await deps.records.putState(watch, flushed);
  return flushed;
}
