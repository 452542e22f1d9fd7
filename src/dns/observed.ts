import type { DnsStatus, RecordType, Resolver } from './resolver.js';

/** Called once per query the transport finished: its outcome and how long the wire took. */
export type QueryObserver = (name: string, type: RecordType, status: DnsStatus, ms: number) => void;

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
  return {
    query(name, type, options) {
      if (!types.includes(type)) return inner.query(name, type, options);
      const started = performance.now();
      const pending = inner.query(name, type, options);
      pending.then(
        (outcome) => observe(name, type, outcome.status, performance.now() - started),
        () => undefined,
      );
      return pending;
    },
  };
}
