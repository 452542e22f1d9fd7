import type { DnsOutcome, QueryOptions, RecordData, RecordType, Resolver } from './resolver.js';

/**
 * A global cap on queries in flight. Without it a burst of checks (50 lists each) would put
 * thousands of datagrams on the wire at once, overflow socket buffers and turn into timeouts.
 * Waiting queries are served first in, first out.
 */
export function withConcurrencyLimit(inner: Resolver, maxInFlight: number): Resolver {
  let active = 0;
  const waiting: (() => void)[] = [];

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }

  // Plain promises, no async functions: those cost three more promises and microtask turns per
  // query, which showed in the DNSBL engine's CPU per check.
  function run<T extends RecordType>(
    name: string,
    type: T,
    options?: QueryOptions,
  ): Promise<DnsOutcome<RecordData[T]>> {
    let pending: Promise<DnsOutcome<RecordData[T]>>;
    try {
      pending = inner.query(name, type, options);
    } catch (error) {
      // A resolver that throws instead of rejecting must not keep its slot forever.
      pending = Promise.reject(error);
    }
    pending.then(release, release);
    return pending;
  }

  return {
    query(name, type, options) {
      if (active < maxInFlight) {
        active++;
        return run(name, type, options);
      }
      // The slot passes straight from the releasing query to this one, so `active` stays the same.
      return new Promise<void>((resolve) => waiting.push(resolve)).then(() =>
        run(name, type, options),
      );
    },
  };
}
