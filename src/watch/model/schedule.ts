/**
 * When things happen again (docs/watches.md, "Confirmed changes" and "Deliveries"): a watch's
 * next check, a failed delivery's next attempt, and when failures pause a webhook.
 */

/**
 * A failed delivery is tried again after 5 s, then 1 h, then 24 h: four attempts in all, each
 * with the event's id as `webhook-id`. The family's convention for webhooks.
 */
export const defaultRetryDelaysMs: readonly number[] = [5_000, 3_600_000, 86_400_000];

/**
 * A confirmation e-mail that failed is tried again after 5 s, 1 min, 5 min and 15 min: its
 * link lives a day and its asker is waiting, so an hour's wait for a relay that was down a
 * minute would be an hour of "why no e-mail?" (docs/watches.md, "E-mail").
 */
export const confirmationRetryDelaysMs: readonly number[] = [5_000, 60_000, 300_000, 900_000];

/**
 * Failed events that pause deliveries: an event counts from its first failed attempt, a test's
 * too, and only a 2xx answer (or a new webhook URL) starts the count again. Counting the first
 * attempt, not the last, is what lets a receiver that fails everything pause before its first
 * event's retries run out 25 h later (docs/watches.md, "The pause").
 */
export const pauseAfterFailedEvents = 5;

/**
 * How long a claimed delivery stays its claimer's, and how long a watch's one attempt in flight
 * holds it (docs/watch-engine.md, "Claims and leases"): twice WEBHOOK_TIMEOUT_MS, at least a
 * minute.
 */
export function deliveryLeaseMs(webhookTimeoutMs: number): number {
  return Math.max(60_000, 2 * webhookTimeoutMs);
}

/**
 * The next check of a watch checked for `dueAt`: one interval later, keeping its cadence; when
 * that has already passed (the service was down, or the check itself ran late), one interval from
 * now, so a watch never runs a burst of missed checks.
 */
export function nextCheckAt(dueAt: number, intervalS: number, now: number): number {
  const next = dueAt + intervalS * 1000;
  return next > now ? next : now + intervalS * 1000;
}

/**
 * The next check while a change awaits its confirming checks (docs/watches.md, "Confirmed
 * changes"): a minute on, or WATCH_MIN_INTERVAL_S or the watch's own interval when shorter, so
 * a confirmed alert comes minutes after the first answer, not intervals after.
 */
export const confirmingCheckS = 60;

export function confirmingCheckAt(now: number, intervalS: number, minIntervalS: number): number {
  return now + Math.min(confirmingCheckS, intervalS, minIntervalS) * 1000;
}

/**
 * The confirming re-checks a watch has made since its last regular check (kept in its state):
 * when the one scheduled is due, when the next regular check is, how many were made.
 */
export interface ConfirmingChecks {
  due_at: string;
  regular_at: string;
  used: number;
}

export interface CheckSchedule {
  /** When the next check is due. */
  at: number;
  /** Kept in the state while the next check is a confirming one. */
  confirming?: ConfirmingChecks;
  /** A change awaits, and its confirming re-checks are used up: it waits for the regular check. */
  bounded: boolean;
}

/**
 * When a watch is checked next (docs/watches.md, "Confirmed changes"): one interval after the
 * regular check, keeping its cadence; while a change awaits confirmation, a confirming re-check
 * soon (`confirmingCheckAt`), but at most `confirmations - 1` of them between two regular checks,
 * the next then waiting for the regular one. So no answer, however it alternates, re-checks a
 * watch faster than WATCH_MIN_INTERVAL_S beyond those few: a domain whose answers alternate
 * between two new values kept a watch awaiting confirmation, and re-checked, every minute.
 */
export function scheduleAfterCheck(input: {
  /** The due time the check was claimed for. */
  claimedFor: number;
  now: number;
  intervalS: number;
  minIntervalS: number;
  confirmations: number;
  /** Whether a change awaits confirmation after this check. */
  awaits: boolean;
  /** The confirming re-checks made since the last regular check, from the state. */
  previous: ConfirmingChecks | undefined;
}): CheckSchedule {
  const { claimedFor, now, intervalS } = input;
  // This check is the confirming one scheduled, unless its regular check has come meanwhile
  // (the service was down): then it stands for that one.
  const wasConfirming =
    input.previous !== undefined &&
    Date.parse(input.previous.due_at) === claimedFor &&
    Date.parse(input.previous.regular_at) > now;
  const regularAt = wasConfirming
    ? Date.parse(input.previous!.regular_at)
    : nextCheckAt(claimedFor, intervalS, now);
  const used = wasConfirming ? input.previous!.used : 0;
  if (!input.awaits) return { at: regularAt, bounded: false };
  if (used >= input.confirmations - 1) return { at: regularAt, bounded: true };
  const soon = confirmingCheckAt(now, intervalS, input.minIntervalS);
  if (soon >= regularAt) return { at: regularAt, bounded: false };
  return {
    at: soon,
    confirming: {
      due_at: new Date(soon).toISOString(),
      regular_at: new Date(regularAt).toISOString(),
      used: used + 1,
    },
    bounded: false,
  };
}

/** How long until the next attempt after `attempts` failed ones, or undefined when none is left. */
export function retryDelay(attempts: number, delaysMs: readonly number[]): number | undefined {
  return delaysMs[attempts - 1];
}
