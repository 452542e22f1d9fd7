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

  async function acquire(): Promise<void> {
    if (active < maxInFlight) {
      active++;
      return;
    }
    // The slot passes straight from the releasing query to this one, so `active` stays the same.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  return {
    async query<T extends RecordType>(
      name: string,
      type: T,
      options?: QueryOptions,
    ): Promise<DnsOutcome<RecordData[T]>> {
      await acquire();
      try {
        return await inner.query(name, type, options);
      } finally {
        release();
      }
    },
  };
}
