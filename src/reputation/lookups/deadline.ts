import type { QueryOptions } from '../../dns/index.js';

/**
 * One deadline shared by every query of a check, so one slow list never holds the response: work
 * still running when it passes is given up and reported as a timeout (never as clean). It is also
 * the check's handle on the DNS: queries given its `queryOptions` are abandoned when it passes or
 * when the check is done (their in-flight slots freed), and count as one check in the fair share
 * of the in-flight cap (`src/dns/concurrency.ts`).
 */
export interface Deadline {
  /** Resolves to `work`'s value, or to `onTimeout` once the deadline has passed. */
  race<T, F>(work: Promise<T>, onTimeout: F): Promise<T | F>;
  readonly expired: boolean;
  /** Aborts when the deadline passes or `clear()` is called. */
  readonly signal: AbortSignal;
  /** What every query of the check carries: the signal, and the check it belongs to. */
  readonly queryOptions: Readonly<QueryOptions>;
  /** `queryOptions` with a query timeout of its own (a list's, by its latency): one per value. */
  queryOptionsWithin(timeoutMs: number): Readonly<QueryOptions>;
  /**
   * Calls `heard` once the deadline passes (after its signal has aborted), never once it is
   * cleared: what a fan-out still waits for is then given up in one step, rather than each of its
   * look-ups raced against the deadline (a promise each).
   */
  whenPassed(heard: () => void): void;
  /** Releases the timer once the check is done, and abandons its queries still in flight. */
  clear(): void;
}

/**
 * Why a deadline's signal aborts, one value for every deadline: `abort()` without a reason builds
 * a DOMException and its stack trace for each check (it showed in the profile of uncached checks,
 * docs/benchmarks.md), and nothing reads the reason.
 */
const deadlineReason = Object.freeze({ name: 'DeadlineReason', message: 'the check is over' });

/**
 * A deadline `ms` from now. `within` a check's deadline, it is a shorter one for part of that
 * check: it passes when either does, and its queries count as the same check.
 */
export function createDeadline(ms: number, within?: Deadline): Deadline {
  const controller = new AbortController();
  let expired = false;
  let cleared = false;
  const onPass: (() => void)[] = [];
  const pass = () => {
    if (expired || cleared) return;
    expired = true;
    controller.abort(deadlineReason);
    for (const heard of onPass.splice(0)) heard();
  };
  const timer = setTimeout(pass, ms);
  const outer = within?.signal;
  if (outer?.aborted) pass();
  else outer?.addEventListener('abort', pass, { once: true });
  // Made by the first race, and shared by every race after it: most races are with `null`.
  let passed: Promise<void> | undefined;
  let passedWithNull: Promise<null> | undefined;
  const whenAborted = () =>
    (passed ??= new Promise<void>((resolve) => {
      if (controller.signal.aborted) resolve();
      else controller.signal.addEventListener('abort', () => resolve(), { once: true });
    }));
  const queryOptions = { signal: controller.signal, check: within?.queryOptions.check ?? Symbol() };
  // Most lists share a few timeouts: one options object each, not one per query.
  const withTimeout = new Map<number, Readonly<QueryOptions>>();
  return {
    race: <T, F>(work: Promise<T>, onTimeout: F) =>
      Promise.race<T | F>([
        // A query the deadline's signal abandons settles (as a timeout) in the same abort, before
        // the race hears it: whatever settles once the deadline has passed is the deadline's.
        work.then((value) => (expired ? onTimeout : value)),
        onTimeout === null
          ? ((passedWithNull ??= whenAborted().then(() => null)) as Promise<F>)
          : whenAborted().then(() => onTimeout),
      ]),
    queryOptionsWithin(timeoutMs) {
      let options = withTimeout.get(timeoutMs);
      if (!options) {
        options = { ...queryOptions, timeoutMs };
        withTimeout.set(timeoutMs, options);
      }
      return options;
    },
    get expired() {
      return expired;
    },
    whenPassed(heard) {
      if (expired) heard();
      else if (!cleared) onPass.push(heard);
    },
    signal: controller.signal,
    queryOptions,
    clear() {
      cleared = true;
      onPass.length = 0;
      clearTimeout(timer);
      outer?.removeEventListener('abort', pass);
      controller.abort(deadlineReason);
    },
  };
}
