import { LRUCache } from 'lru-cache';
import type { DnsOutcome, QueryOptions, RecordData, RecordType, Resolver } from './resolver.js';

/**
 * A bounded, TTL-aware answer cache with coalescing of identical queries in flight. A check asks
 * the same names again and again (the PTR target's A record, an SPF include shared by many
 * domains), and a burst of checks of one address must cost one query, not one per request.
 */

export interface CacheOptions {
  maxEntries: number;
  /** Answers live at least this long whatever their TTL (a TTL of 0 would defeat coalescing bursts). */
  minTtlSeconds: number;
  /** No answer is kept longer than this, whatever its TTL. */
  maxTtlSeconds: number;
  /** NXDOMAIN and NODATA, kept briefly (RFC 2308 negative caching, without the SOA minimum). */
  negativeTtlSeconds: number;
  /** SERVFAIL and REFUSED, kept very briefly so a failing list is not hammered; timeouts are never kept. */
  failureTtlSeconds: number;
}

export const defaultCacheOptions: CacheOptions = {
  maxEntries: 50_000,
  minTtlSeconds: 5,
  maxTtlSeconds: 3600,
  negativeTtlSeconds: 60,
  failureTtlSeconds: 5,
};

type AnyOutcome = DnsOutcome<RecordData[RecordType]>;

export function ttlSecondsFor(outcome: AnyOutcome, options: CacheOptions): number {
  switch (outcome.status) {
    case 'answer':
      return Math.min(options.maxTtlSeconds, Math.max(options.minTtlSeconds, outcome.ttl));
    case 'nxdomain':
    case 'nodata':
      return options.negativeTtlSeconds;
    case 'servfail':
    case 'refused':
      return options.failureTtlSeconds;
    case 'timeout':
      return 0;
  }
}

/** A query in flight, and the options of the callers that joined it after it started. */
interface Shared {
  outcome: Promise<AnyOutcome>;
  joiners: (QueryOptions | undefined)[];
}

/** A cached resolver that can forget everything it holds. */
export interface CachingResolver extends Resolver {
  /**
   * Drops every cached answer: called when the upstream resolver was caught answering falsely,
   * so the false answers it gave do not outlive the moment it is caught.
   */
  clear(): void;
}

export function withCache(
  inner: Resolver,
  options: CacheOptions = defaultCacheOptions,
): CachingResolver {
  const answers = new LRUCache<string, AnyOutcome>({ max: options.maxEntries });
  const inFlight = new Map<string, Shared>();
  /** Moves on with each `clear`: an answer to a query asked before it is not kept after it. */
  let generation = 0;

  /**
   * Asks on behalf of everyone waiting for `key`. The query carries its first caller's signal, so
   * it is abandoned when that caller gives up; if others who joined it still wait, it is asked
   * again for them rather than answering them a timeout that was not theirs.
   */
  function ask(
    key: string,
    name: string,
    type: RecordType,
    queryOptions: QueryOptions | undefined,
    joiners: Shared['joiners'],
    askedIn: number,
  ): Promise<AnyOutcome> {
    return inner.query(name, type, queryOptions).then((outcome) => {
      if (outcome.status === 'timeout' && queryOptions?.signal?.aborted) {
        const next = joiners.findIndex((joiner) => !joiner?.signal?.aborted);
        if (next !== -1) {
          const [joiner] = joiners.splice(next, 1);
          return ask(key, name, type, joiner, joiners, askedIn);
        }
      }
      if (askedIn !== generation) return outcome;
      inFlight.delete(key);
      const ttl = ttlSecondsFor(outcome, options);
      if (ttl > 0) answers.set(key, outcome, { ttl: ttl * 1000 });
      return outcome;
    });
  }

  return {
    clear() {
      generation++;
      answers.clear();
      inFlight.clear();
    },
    query<T extends RecordType>(
      name: string,
      type: T,
      queryOptions?: QueryOptions,
    ): Promise<DnsOutcome<RecordData[T]>> {
      if (queryOptions?.bypassCache) return inner.query(name, type, queryOptions);
      // DNS names compare case-insensitively (RFC 4343); servers are part of the question asked.
      const key = `${type} ${name.toLowerCase()} ${queryOptions?.servers?.join(',') ?? ''}`;
      const cached = answers.get(key);
      if (cached) return Promise.resolve(cached) as Promise<DnsOutcome<RecordData[T]>>;
      const joined = inFlight.get(key);
      if (joined) {
        joined.joiners.push(queryOptions);
        return joined.outcome as Promise<DnsOutcome<RecordData[T]>>;
      }

      const joiners: Shared['joiners'] = [];
      const askedIn = generation;
      const outcome = ask(key, name, type, queryOptions, joiners, askedIn).catch(
        (error: unknown) => {
          if (askedIn === generation) inFlight.delete(key);
          throw error;
        },
      );
      inFlight.set(key, { outcome, joiners });
      return outcome as Promise<DnsOutcome<RecordData[T]>>;
    },
  };
}
