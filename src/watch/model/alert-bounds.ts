import type { Store } from '../../store/index.js';

/**
 * How many alerts go out a UTC day (docs/watches.md, "Confirmed changes"): per watch, whatever
 * its channels, and per e-mail mailbox, whatever its watches. Two values flipping out of step
 * confirmed a change at every check and sent an alert every minute; the cadence bounds the
 * checks, these bound what reaches a person. Past a bound the change is recorded in the history
 * all the same (the view, the page and the export show it); only its alert is not sent.
 * Counted in the store (atomic on every backend), so WORKERS=N and several machines share them.
 */

/**
 * Alerts per watch a UTC day. **Decision**: 24, one an hour on average: a listing and its
 * delisting are two, so a target that comes and goes a few times a day is told every time, and
 * one that flaps all day is told for a day's first hours, the history keeping the rest.
 */
export const alertsPerWatchPerDay = 24;

/**
 * E-mail alerts per mailbox a UTC day, over all its watches. **Decision**: 50, two watches'
 * worth of a busy day: a postmaster with several watches on one address is told, and no set of
 * watches turns the operator's relay into a flood to one inbox.
 */
export const alertsPerMailboxPerDay = 50;

/** Which bound an alert met: the watch's or the mailbox's (the metrics' label). */
export type AlertBound = 'watch_alerts' | 'mailbox_alerts';

const dayMs = 86_400_000;

/**
 * Takes one alert of the day under `key`'s bound (`limit`): true when taken. The counter lives
 * to the end of its UTC day.
 */
async function takeAlert(store: Store, key: string, limit: number, now: number): Promise<boolean> {
  const day = Math.floor(now / dayMs);
  const ttlMs = (day + 1) * dayMs - now + 60_000;
  return (await store.incrementWithin(`${key}:${day}`, limit, ttlMs)) !== undefined;
}

/** One of the watch's alerts of the day, for every channel of one change. */
export function takeWatchAlert(store: Store, watchId: string, now: number): Promise<boolean> {
  return takeAlert(store, `watch-alerts:${watchId}`, alertsPerWatchPerDay, now);
}

/** One e-mail alert of the day to a mailbox, by the SHA-256 of its folded form. */
export function takeMailboxAlert(store: Store, mailboxHash: string, now: number): Promise<boolean> {
  return takeAlert(store, `email-alerts:${mailboxHash}`, alertsPerMailboxPerDay, now);
}
