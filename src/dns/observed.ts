import { askResolver, resolverOf } from './asking.js';
import type {
  DnsOutcome,
  DnsStatus,
  OutcomeListener,
  QueryOptions,
  RecordType,
  Resolver,
} from './resolver.js';

/** Called once per query the transport finished: its outcome and how long the wire took. */
export type QueryObserver = (
  name: string,
  type: RecordType,
  status: DnsStatus,
  ms: number,
  /** The options the query was asked with (`QueryOptions.list` names a list's look-up). */
  options?: QueryOptions,
) => void;

/** One observed query on the wire: told to the observer, then to whoever asked. */
class ObservedQuery<T> implements OutcomeListener<T> {
  constructor(
    private readonly observe: QueryObserver,
    private readonly name: string,
    private readonly type: RecordType,
    private readonly options: QueryOptions | undefined,
    private readonly started: number,
    private readonly listener: OutcomeListener<T>,
  ) {}

  answered(outcome: DnsOutcome<T>): void {
    const ms = performance.now() - this.started;
    this.observe(this.name, this.type, outcome.status, ms, this.options);
    this.listener.answered(outcome);
  }

  failed(error: unknown): void {
    this.listener.failed(error);
  }
}

/**
 * Reports every query of the given types that reached the transport, below the cache and the
 * in-flight cap, so what it sees is the wire: per-list answers, timeouts and latency (`GET
 * /lists`). Queries of other types pass untouched.
 */
export function withObserver(
  inner: Resolver,
  observe: QueryObserver,
  types: readonly RecordType[],
): Resolver {
  return resolverOf((name, type, options, listener) => {
    if (!types.includes(type)) {
      askResolver(inner, name, type, options, listener);
      return;
    }
    const observed = new ObservedQuery(observe, name, type, options, performance.now(), listener);
    askResolver(inner, name, type, options, observed);
  });
}
