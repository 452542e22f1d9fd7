import type { EndpointFailover } from './endpoint-failover.js';
import type { DnsOutcome, OutcomeListener } from './resolver.js';
import { createSignalWatches, type SignalWatches } from './signal-watches.js';

/**
 * One query on the wire, from its first attempt to its outcome, for the transports that carry DNS
 * messages themselves (UDP and TCP on Node, DNS over HTTPS on both runtimes): each attempt goes to
 * the current endpoint (`endpoint-failover.ts`) and has `timeoutMs`; an attempt that gets no
 * usable answer is followed by another, `retries` times; the caller's signal ends the query at
 * once as `timeout`. A transport says how an attempt is sent and what it holds; this class keeps
 * the rest, with no promise of its own: it tells its listener (`Resolver.ask`'s, or one that
 * settles the transport's promise).
 */

/** How an attempt ended without an outcome: nothing came back, or something that answers nothing. */
export type AttemptFailure = 'no-answer' | 'bad-answer';

/** The rules a transport's queries share. */
export interface AttemptPolicy {
  /** For one attempt: sending the query and reading the whole answer. */
  timeoutMs: number;
  /** Attempts after a first one that got no usable answer. */
  retries: number;
  failover: EndpointFailover;
  /** The queries given each caller's signal (`attemptPolicy` makes it). */
  watches: SignalWatches<{ abort(): void }>;
}

export function attemptPolicy(
  options: { timeoutMs: number; retries: number },
  failover: EndpointFailover,
): AttemptPolicy {
  return {
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    failover,
    watches: createSignalWatches((query) => query.abort()),
  };
}

const timedOut = { status: 'timeout' } as const;
const serverFailure = { status: 'servfail' } as const;

/** A module-level timer callback, given its query: no closure per attempt. */
function attemptTimedOut(query: { timedOut(): void }): void {
  query.timedOut();
}

export abstract class PendingQuery<T> {
  /** The endpoint the attempt in progress went to. */
  protected endpoint = 0;
  #tries = 0;
  /** Whether some attempt got a response that was no answer: then the query failed, not timed out. */
  #badAnswer = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** How long each attempt waits: the policy's, or the query's own (`QueryOptions.timeoutMs`). */
  #attemptMs = 0;
  #settled = false;

  constructor(
    protected readonly policy: AttemptPolicy,
    private readonly signal: AbortSignal | undefined,
    private readonly listener: Pick<OutcomeListener<T>, 'answered'>,
  ) {}

  /** Sends an attempt to `endpoint`; its answer comes to `settle` or `failed`. */
  protected abstract send(endpoint: number): void;
  /** The attempt in progress gets no more time: stop what it holds that costs (a stream, a socket). */
  protected abstract abandonAttempt(): void;
  /** The query is over: let go of what it held (IDs, streams). */
  protected abstract release(): void;

  /**
   * Sends the first attempt, unless the caller has already given up. `attemptMs` replaces the
   * policy's timeout for each of this query's attempts (a list's look-ups wait by its latency).
   */
  start(attemptMs: number = this.policy.timeoutMs): void {
    this.#attemptMs = attemptMs;
    const { signal } = this;
    if (signal?.aborted) {
      this.#settled = true;
      this.listener.answered(timedOut);
      return;
    }
    if (signal) this.policy.watches.watch(signal, this);
    this.#attempt();
  }

  get settled(): boolean {
    return this.#settled;
  }

  #attempt(): void {
    this.#tries++;
    this.endpoint = this.policy.failover.current();
    this.#timer = setTimeout(attemptTimedOut, this.#attemptMs, this);
    this.send(this.endpoint);
  }

  /** The query's outcome: the attempts end here. */
  settle(outcome: DnsOutcome<T>): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    if (this.signal) this.policy.watches.unwatch(this.signal, this);
    this.release();
    this.listener.answered(outcome);
  }

  /**
   * The attempt in progress ended without an outcome: the next endpoint becomes current, and
   * the next attempt goes there while retries are left. An endpoint that answered with something
   * that is no answer failed like a server; only when none answered at all is it a timeout.
   */
  failed(failure: AttemptFailure): void {
    if (this.#settled) return;
    clearTimeout(this.#timer);
    this.policy.failover.failed(this.endpoint);
    if (failure === 'bad-answer') this.#badAnswer = true;
    if (this.#tries <= this.policy.retries && !this.signal?.aborted) this.#attempt();
    else this.settle(this.#badAnswer ? serverFailure : timedOut);
  }

  /** The attempt's time ran out. */
  timedOut(): void {
    this.abandonAttempt();
    this.failed('no-answer');
  }

  /** The caller's signal aborted: the outcome is `timeout`, whatever is still on the wire. */
  abort(): void {
    if (this.#settled) return;
    this.abandonAttempt();
    this.settle(timedOut);
  }
}
