import type { Logger } from '../lib/index.js';
import type { DueClaim, Store } from '../store/index.js';
import { awaitsConfirmation, isChange, type Recheck, recordObservation } from './kinds/index.js';
import { mailboxOf } from './email/index.js';
import { type Change, type WatchStatus } from './kinds/index.js';
import {
  type AlertBound,
  boundedChange,
  boundedHistory,
  changeEventType,
  defaultConfirmations,
  type Digest,
  enqueueDeliveries,
  hashOf,
  hasEnded,
  type LinksOf,
  nextCheckAt,
  type PendingDelivery,
  pendingDelivery,
  type QueueRules,
  queues,
  type RandomBytes,
  releasePlaces,
  scheduleAfterCheck,
  takeMailboxAlert,
  takeWatchAlert,
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
  /** Hashes a mailbox for its daily count of alerts. */
  digest: Digest;
  /**
   * Hears each bound a watch met (the metrics' reputation_watch_bounded_total): a confirming
   * re-check put off to the regular check, an alert not sent past its day's count.
   */
  onBounded?: (bound: WatchBound) => void;
}

/** The bounds a watch's cadence and alerts meet (docs/watches.md, "Confirmed changes"). */
export type WatchBound = 'confirming_checks' | AlertBound;

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
  // An entry and its events carry a bounded number of items (model/history.ts).
  const change = boundedChange(heard.change);
  const { status } = outcome.observation;
  const reported = state !== undefined && isChange(change);
  const history = state?.history ?? [];
  const outbox = reported ? await alertsOf(deps, watch, change, status, at) : [];
  const schedule = scheduleAfterCheck({
    claimedFor: claim.dueAt,
    now: at.getTime(),
    intervalS: watch.interval_s,
    minIntervalS: deps.minIntervalS,
    confirmations,
    awaits: awaitsConfirmation(known),
    previous: state?.confirming,
  });
  if (schedule.bounded) deps.onBounded?.('confirming_checks');
  const next = schedule.at;
  // A change not yet confirmed is shown to no one: the badge and the view keep the last
  // confirmed status until it is (docs/watches.md, "Confirmed changes").
  const shown = !reported && awaitsConfirmation(known) && state ? state.status : status;
  const recorded: WatchState = {
    ...known,
    checked_at: at.toISOString(),
    next_check_at: new Date(next).toISOString(),
    ...(schedule.confirming ? { confirming: schedule.confirming } : {}),
    status: shown,
    ...(outcome.resolvesTo ? { resolves_to: outcome.resolvesTo } : {}),
    history: reported
      ? boundedHistory([
          { at: at.toISOString(), ...change, verdict: status.verdict, score: status.score },
          ...history,
        ])
      : history,
    outbox,
  };
  // The state with its outbox is the commit point: from here the events are not lost.
  await records.putState(watch, recorded);
  if (outbox.length > 0) await flushOutbox(deps, watch, recorded);
  await reschedule(at.getTime(), next);
}

/**
 * The deliveries of a reported change: its webhook's event unless the webhook is paused, and an
 * e-mail alert to a confirmed address whatever the webhook's pause (docs/watches.md, "E-mail"),
 * within the day's alerts of the watch and of the mailbox (model/alert-bounds.ts).
 */
async function alertsOf(
  deps: CheckStepDeps,
  watch: WatchConfig,
  change: Change,
  status: WatchStatus,
  at: Date,
): Promise<PendingDelivery[]> {
  const webhook = watch.webhook !== null && !(await deps.records.webhookStatus(watch.id)).paused;
  const email = watch.email?.confirmed ? watch.email.address : undefined;
  if (!webhook && email === undefined) return [];
  const now = at.getTime();
  if (!(await takeWatchAlert(deps.store, watch.id, now))) {
    deps.onBounded?.('watch_alerts');
    return [];
  }
  const alert = () =>
    pendingDelivery(
      watch.id,
      watchEvent(changeEventType(change), watch, deps.links(watch), status, at, change),
      deps.randomBytes,
      now,
    );
  const outbox: PendingDelivery[] = webhook ? [alert()] : [];
  if (email !== undefined) {
    const mailbox = await hashOf(mailboxOf(email), deps.digest);
    if (await takeMailboxAlert(deps.store, mailbox, now)) {
      outbox.push({ ...alert(), email: { to: email, kind: 'alert' } });
    } else deps.onBounded?.('mailbox_alerts');
  }
  return outbox;
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
