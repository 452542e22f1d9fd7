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

/** How long until the next attempt after `attempts` failed ones, or undefined when none is left. */
export function retryDelay(attempts: number, delaysMs: readonly number[]): number | undefined {
  return delaysMs[attempts - 1];
}
