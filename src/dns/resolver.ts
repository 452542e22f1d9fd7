/**
 * The DNS client every check is built on. Outcomes keep apart what DNSBL and SPF rules need to
 * tell apart: an answer, a name that does not exist (NXDOMAIN), a name with no records of the type
 * (NODATA), a server failure, a refusal and no answer at all.
 */

export type RecordType = 'A' | 'AAAA' | 'PTR' | 'TXT' | 'MX' | 'NS' | 'CNAME';

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** What one record of each type decodes to. TXT character-strings are joined (RFC 7208 §3.3). */
export interface RecordData {
  A: string;
  AAAA: string;
  PTR: string;
  TXT: string;
  MX: MxRecord;
  NS: string;
  CNAME: string;
}

export type DnsOutcome<T> =
  | { status: 'answer'; records: T[]; ttl: number }
  | { status: 'nxdomain' }
  | { status: 'nodata' }
  | { status: 'servfail' }
  | { status: 'refused' }
  | { status: 'timeout' };

export type DnsStatus = DnsOutcome<unknown>['status'];

export interface QueryOptions {
  /**
   * The check the query works for. The in-flight cap is shared fairly between checks, and a query
   * whose `signal` aborts leaves the queue or gives its slot back at once (`concurrency.ts`).
   * Callers coalesced onto one query in flight share its answer (`caching.ts`): it is abandoned
   * when the caller it was asked for gives up and asked again for those still waiting.
   */
  check?: symbol;
  /** Skip the answer cache and in-flight coalescing: pool discovery needs a fresh answer per query. */
  bypassCache?: boolean;
  /** Ask these servers (`ip` or `ip:port`) instead of the configured ones (a zone's authoritative servers). */
  servers?: readonly string[];
  /**
   * Gives up on the query once aborted; the outcome is then `timeout`, and the transport lets go
   * of what the query held (its ID on a UDP socket, its HTTP/2 stream or `fetch`).
   */
  signal?: AbortSignal;
  /**
   * How long each attempt waits for an answer, instead of the transport's own timeout
   * (DNS_TIMEOUT_MS): a list's look-ups wait by its measured latency (src/reputation/lists/
   * side-standings.ts). Retries keep the transport's count.
   */
  timeoutMs?: number;
}

/** Hears the outcome of one query asked through `Resolver.ask`: one call, of one of the two. */
export interface OutcomeListener<T> {
  answered(outcome: DnsOutcome<T>): void;
  /** The query threw instead of answering: a bug (a server address that is no address), never DNS. */
  failed(error: unknown): void;
}

export interface Resolver {
  query<T extends RecordType>(
    name: string,
    type: T,
    options?: QueryOptions,
  ): Promise<DnsOutcome<RecordData[T]>>;
  /**
   * The same query, its outcome told to `listener` rather than through a promise: the layers of
   * the resolver stack (stack.ts) hand an answer up to the DNSBL engine in one synchronous call,
   * not a promise and a microtask each (docs/benchmarks.md, "Answers that trickle"). It may tell
   * the listener before it returns (a cached answer). Optional: `askResolver` asks through `query`
   * where a resolver has no `ask`.
   */
  ask?<T extends RecordType>(
    name: string,
    type: T,
    options: QueryOptions | undefined,
    listener: OutcomeListener<RecordData[T]>,
  ): void;
}

/** The records of an answer, or none for every other outcome. */
export function recordsOf<T>(outcome: DnsOutcome<T>): T[] {
  return outcome.status === 'answer' ? outcome.records : [];
}
