/**
 * When things happen again (docs/watches.md, "Schedule" and "Retries"): a watch's next check, a
 * failed delivery's next attempt, and when failures pause a webhook.
 */

/**
 * A failed delivery is tried again after 5 s, then 1 h, then 24 h: four attempts in all, each
 * with the event's id as `webhook-id`. The family's convention for webhooks.
 */
export const defaultRetryDelaysMs: readonly number[] = [5_000, 3_600_000, 86_400_000];

/** Events in a row whose every attempt failed before deliveries pause. */
export const pauseAfterFailedEvents = 5;

/**
 * The next check of a watch checked for `dueAt`: one interval later, keeping its cadence; when
 * that has already passed (the service was down, or the check itself ran late), one interval from
 * now, so a watch never runs a burst of missed checks.
 */
export function nextCheckAt(dueAt: number, intervalS: number, now: number): number {
  const next = dueAt + intervalS * 1000;
  return next > now ? next : now + intervalS * 1000;
}

/** How long until the next attempt after `attempts` failed ones, or undefined when none is left. */
export function retryDelay(attempts: number, delaysMs: readonly number[]): number | undefined {
  return delaysMs[attempts - 1];
}
