import type { ListTraffic } from './list-stats.js';

/**
 * How long a look-up waits for one list: while the list is active, a few times its own measured
 * latency rather than the resolver's whole timeout, so a list that slows down or drops a query
 * costs a check tens of milliseconds, not seconds. Measured latency is the list's p95 on the wire
 * over the last hour (list-stats.ts); until it has enough answers, the resolver's timeout holds.
 */

/** The wait is this many times the list's p95: a slow answer within it still comes in. */
export const p95Multiple = 4;
/** Never less than this: a little over the round trip to most lists' servers, with jitter. */
export const minTimeoutMs = 150;
/** Answers in the last hour before the p95 is trusted (a self-test run gives three). */
export const minAnswers = 10;

/**
 * The timeout of a look-up on a list with this traffic, at most `maxMs` (DNS_TIMEOUT_MS);
 * undefined while too few answers were measured (the resolver's own timeout applies).
 */
export function listTimeoutMs(traffic: ListTraffic | undefined, maxMs: number): number | undefined {
  if (!traffic || traffic.answers < minAnswers || traffic.p95 === null) return undefined;
  return Math.min(maxMs, Math.max(minTimeoutMs, p95Multiple * traffic.p95));
}
