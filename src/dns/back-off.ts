import { askResolver, resolverOf } from './asking.js';
import type { DnsOutcome, OutcomeListener, Resolver } from './resolver.js';

/**
 * A resolver that stops asking a resolver that answers nothing (docs/edge.md, "A resolver that
 * cannot be reached"). After `failuresToHold` queries in a row got no answer at all (an NXDOMAIN,
 * a SERVFAIL or a REFUSED is an answer; a query its caller gave up on counts for nothing), with
 * no answer for `firstWaitMs`, and from at least `zonesToHold` zones (one silent list holds
 * nothing, even when its queries are the last ones a check waits for), queries fail at once as
 * `timeout`, as they would have on the wire, and one query is let through after 1 s, 2 s, 4 s ...
 * up to `maxWaitMs` to probe it; the first answer ends the hold. So a DoH endpoint whose name does
 * not resolve, or DNS servers behind a closed port, cost one query per wait instead of every
 * self-test and probe of every list, and the operator hears of it once per wait, with a count,
 * instead of once per query. Queries to named servers (`QueryOptions.servers`: a pool's name
 * servers) are not the resolver's: they pass untouched and count for nothing.
 *
 * Only a query that no answer followed counts: one sent before the resolver's last answer was
 * dropped by a resolver that answers, not lost to one that answers nothing. A busy resolver drops
 * a few of a burst (the self-test's first run sends about 150 queries at once) and answers the
 * rest; counted, those few held a resolver that answered all along, and the operator read
 * "answers nothing" and "answers again" two seconds apart.
 */

/** What the operator is told: a hold began, a probe failed again, or an answer ended it. */
export type UnreachableReport =
  | { kind: 'held'; failures: number; waitMs: number }
  | { kind: 'still'; failed: number; waitMs: number; sinceMs: number }
  | { kind: 'answers'; failed: number; sinceMs: number };

export interface BackOffOptions {
  /** Queries in a row without an answer that start a hold (default 8). */
  failuresToHold?: number;
  /**
   * How many zones (a name's last two labels) the failures in a row must span (default 3): a
   * resolver that answers nothing fails for every list, a silent list for one.
   */
  zonesToHold?: number;
  /** The first wait before a probe (default 1 s); doubled after each probe that fails. */
  firstWaitMs?: number;
  /** The longest wait (default 60 s). */
  maxWaitMs?: number;
  now?: () => number;
  onReport?: (report: UnreachableReport) => void;
}

const timedOut = { status: 'timeout' } as const;

interface Hold {
  since: number;
  waitMs: number;
  probeAt: number;
  probing: boolean;
  /** Queries failed at once since the last report. */
  failed: number;
}

export function withBackOff(resolver: Resolver, options: BackOffOptions = {}): Resolver {
  const failuresToHold = options.failuresToHold ?? 8;
  const zonesToHold = options.zonesToHold ?? 3;
  const firstWaitMs = options.firstWaitMs ?? 1000;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const now = options.now ?? Date.now;
  const report = options.onReport ?? (() => {});
  let failuresInARow = 0;
  /** The zones of the failures in a row, counted up to `zonesToHold`. */
  const zonesFailing = new Set<string>();
  let lastAnswerAt = now();
  let hold: Hold | undefined;

  function heard(
    name: string,
    outcome: DnsOutcome<unknown>,
    sentAt: number,
    probe: boolean,
    gaveUp: boolean,
  ): void {
    const at = now();
    if (outcome.status !== 'timeout') {
      failuresInARow = 0;
      zonesFailing.clear();
      lastAnswerAt = at;
      if (hold) report({ kind: 'answers', failed: hold.failed, sinceMs: at - hold.since });
      hold = undefined;
      return;
    }
    if (hold && probe) {
      hold.waitMs = Math.min(2 * hold.waitMs, maxWaitMs);
      hold.probeAt = at + hold.waitMs;
      hold.probing = false;
      report({ kind: 'still', failed: hold.failed, waitMs: hold.waitMs, sinceMs: at - hold.since });
      hold.failed = 0;
      return;
    }
    if (hold || gaveUp || lastAnswerAt > sentAt) return;
    failuresInARow++;
    if (zonesFailing.size < zonesToHold) zonesFailing.add(zoneOf(name));
    if (failuresInARow < failuresToHold || zonesFailing.size < zonesToHold) return;
    if (at - lastAnswerAt < firstWaitMs) return;
    hold = { since: at, waitMs: firstWaitMs, probeAt: at + firstWaitMs, probing: false, failed: 0 };
    report({ kind: 'held', failures: failuresInARow, waitMs: firstWaitMs });
  }

  /** A query let through to the resolver: what it heard counts for the hold. */
  class HeldBack<T> implements OutcomeListener<T> {
    private readonly sentAt = now();

    constructor(
      private readonly name: string,
      private readonly probe: boolean,
      private readonly signal: AbortSignal | undefined,
      private readonly listener: OutcomeListener<T>,
    ) {}

    answered(outcome: DnsOutcome<T>): void {
      heard(this.name, outcome, this.sentAt, this.probe, this.signal?.aborted === true);
      this.listener.answered(outcome);
    }

    failed(error: unknown): void {
      if (this.probe && hold) hold.probing = false;
      this.listener.failed(error);
    }
  }

  return resolverOf((name, type, queryOptions, listener) => {
    if (queryOptions?.servers !== undefined) {
      askResolver(resolver, name, type, queryOptions, listener);
      return;
    }
    const probe = hold !== undefined && !hold.probing && now() >= hold.probeAt;
    if (hold && !probe) {
      hold.failed++;
      listener.answered(timedOut);
      return;
    }
    if (hold) hold.probing = true;
    const heldBack = new HeldBack(name, probe, queryOptions?.signal, listener);
    askResolver(resolver, name, type, queryOptions, heldBack);
  });
}

/** A name's last two labels: enough to tell one list's queries from most others'. */
function zoneOf(name: string): string {
  return name.toLowerCase().replace(/\.$/, '').split('.').slice(-2).join('.');
}
