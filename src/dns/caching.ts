import { LRUCache } from 'lru-cache';
import { askResolver, resolverOf } from './asking.js';
import type {
  DnsOutcome,
  OutcomeListener,
  QueryOptions,
  RecordData,
  RecordType,
  Resolver,
} from './resolver.js';

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

/** A cached resolver that can forget everything it holds. */
export interface CachingResolver extends Resolver {
  /**
   * Drops every cached answer: called when the upstream resolver was caught answering falsely,
   * so the false answers it gave do not outlive the moment it is caught.
   */
  clear(): void;
}

/**
 * A query in flight on behalf of everyone waiting for its key: the first caller, and those who
 * joined it after it started. It carries the options of the caller it is asked for, so it is
 * abandoned when that caller gives up; if others still wait, it is asked again for them rather
 * than answering them a timeout that was not theirs.
 */
class SharedQuery implements OutcomeListener<RecordData[RecordType]> {
  /** Who hears the outcome, the first caller first. */
  readonly listeners: OutcomeListener<RecordData[RecordType]>[] = [];
  /** The options of the callers still to ask for, should the caller asked for give up. */
  readonly joiners: (QueryOptions | undefined)[] = [];

  constructor(
    private readonly cache: AnswerCache,
    readonly key: string,
    readonly name: string,
    readonly type: RecordType,
    /** The cache's generation when it was asked: an answer from before a `clear` is not kept. */
    readonly askedIn: number,
    private options: QueryOptions | undefined,
  ) {}

  ask(): void {
    askResolver(this.cache.inner, this.name, this.type, this.options, this);
  }

  answered(outcome: AnyOutcome): void {
    if (outcome.status === 'timeout' && this.options?.signal?.aborted) {
      const next = this.joiners.findIndex((joiner) => !joiner?.signal?.aborted);
      if (next !== -1) {
        [this.options] = this.joiners.splice(next, 1);
        this.ask();
        return;
      }
    }
    this.cache.settled(this, outcome);
    for (const listener of this.listeners) listener.answered(outcome);
  }

  failed(error: unknown): void {
    this.cache.failed(this);
    for (const listener of this.listeners) listener.failed(error);
  }
}

class AnswerCache {
  readonly answers: LRUCache<string, AnyOutcome>;
  readonly inFlight = new Map<string, SharedQuery>();
  /** Moves on with each `clear`: an answer to a query asked before it is not kept after it. */
  generation = 0;

  constructor(
    readonly inner: Resolver,
    readonly options: CacheOptions,
  ) {
    this.answers = new LRUCache<string, AnyOutcome>({ max: options.maxEntries });
  }

  ask<T extends RecordType>(
    name: string,
    type: T,
    queryOptions: QueryOptions | undefined,
    listener: OutcomeListener<RecordData[T]>,
  ): void {
    if (queryOptions?.bypassCache) {
      askResolver(this.inner, name, type, queryOptions, listener);
      return;
    }
    const heard = listener as OutcomeListener<RecordData[RecordType]>;
    // DNS names compare case-insensitively (RFC 4343); servers are part of the question asked.
    const key = `${type} ${name.toLowerCase()} ${queryOptions?.servers?.join(',') ?? ''}`;
    const cached = this.answers.get(key);
    if (cached) {
      heard.answered(cached);
      return;
    }
    const joined = this.inFlight.get(key);
    if (joined) {
      joined.listeners.push(heard);
      joined.joiners.push(queryOptions);
      return;
    }
    const shared = new SharedQuery(this, key, name, type, this.generation, queryOptions);
    shared.listeners.push(heard);
    this.inFlight.set(key, shared);
    shared.ask();
  }

  settled(shared: SharedQuery, outcome: AnyOutcome): void {
    if (shared.askedIn !== this.generation) return;
    this.inFlight.delete(shared.key);
    const ttl = ttlSecondsFor(outcome, this.options);
    if (ttl > 0) this.answers.set(shared.key, outcome, { ttl: ttl * 1000 });
  }

  failed(shared: SharedQuery): void {
    if (shared.askedIn === this.generation) this.inFlight.delete(shared.key);
  }

  clear(): void {
    this.generation++;
    this.answers.clear();
    this.inFlight.clear();
  }
}

export function withCache(
  inner: Resolver,
  options: CacheOptions = defaultCacheOptions,
): CachingResolver {
  const cache = new AnswerCache(inner, options);
  return {
    ...resolverOf((name, type, queryOptions, listener) =>
      cache.ask(name, type, queryOptions, listener),
    ),
    clear: () => cache.clear(),
  };
}
