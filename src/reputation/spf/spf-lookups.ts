import type { DnsOutcome, MxRecord, RecordData, RecordType, Resolver } from '../../dns/index.js';
import { isSpecialUseName } from '../../lib/index.js';
import type { Deadline } from '../lookups/index.js';
import {
  type DomainSpec,
  type ParsedSpfRecord,
  parseSpfRecord,
  selectSpfRecord,
} from './spf-record.js';

/**
 * The DNS side of an SPF evaluation: one lookup per name and type, bounded by the evaluation's
 * deadline and shared by the walk and the prefetch that runs ahead of it, the TXT answers read
 * into a record (§4.5), and the processing limits (§4.6.4) both keep to.
 */

/** RFC 7208 §4.6.4: the processing limits. */
export const spfLimits = {
  /** DNS-querying terms per evaluation (include, a, mx, ptr, exists, redirect). */
  dnsTerms: 10,
  /** "Void lookups", the RECOMMENDED default. */
  voidLookups: 2,
  /** Address lookups one mx term may cause. */
  mxHosts: 10,
};

/**
 * Lookups started ahead of the walk. Twice the terms the walk itself may evaluate: enough for the
 * terms of a record and those of its includes, little for a sprawling or hostile tree.
 */
const maxPrefetchedTerms = 2 * spfLimits.dnsTerms;

const deadlinePassed = { status: 'deadline' } as const;
export type Outcome<T> = DnsOutcome<T> | typeof deadlinePassed;
/** No usable answer: §5 makes each of these a temperror. */
export type Failure = Exclude<Outcome<unknown>['status'], 'answer' | 'nxdomain' | 'nodata'>;

export type LoadedRecord =
  | { kind: 'found'; text: string; parsed: ParsedSpfRecord }
  | { kind: 'invalid'; text: string; term: string | null; reason: string }
  /** `void`: the TXT lookup itself answered NXDOMAIN or no records. */
  | { kind: 'none'; void: boolean }
  | { kind: 'multiple'; count: number }
  | { kind: 'failed'; status: Failure };

function readRecord(outcome: Outcome<string>): LoadedRecord {
  switch (outcome.status) {
    case 'answer': {
      const selection = selectSpfRecord(outcome.records);
      if (selection.status === 'none') return { kind: 'none', void: false };
      if (selection.status === 'multiple') {
        return { kind: 'multiple', count: selection.records.length };
      }
      const parse = parseSpfRecord(selection.record);
      return parse.ok
        ? { kind: 'found', text: selection.record, parsed: parse.record }
        : { kind: 'invalid', text: selection.record, term: parse.term, reason: parse.reason };
    }
    case 'nxdomain':
    case 'nodata':
      return { kind: 'none', void: true };
    default:
      return { kind: 'failed', status: outcome.status };
  }
}

/**
 * The MX hosts to look up. RFC 7505: an MX of `.` (the transports write the root so; c-ares wrote
 * '') says the domain takes no mail. A host under a special-use suffix is never looked up
 * (docs/checks.md).
 */
export function mailHosts(exchangers: readonly MxRecord[]): string[] {
  return exchangers
    .map((mx) => mx.exchange.toLowerCase().replace(/\.$/, ''))
    .filter((host) => host !== '' && !isSpecialUseName(host));
}

/** A target that names a special-use domain, which is never looked up. */
export function isSpecialName(target: DomainSpec | null | undefined): boolean {
  return target?.macro === false && isSpecialUseName(target.name);
}

/** A lookup a term will cause: an included or redirected-to record, or addresses. */
interface PlannedQuery {
  kind: 'record' | 'a' | 'mx' | 'exists';
  /** null: the record's own domain. */
  name: string | null;
}

/**
 * The lookups a record's terms will cause, in order: up to its first `all` (§5.1), then its
 * redirect when it has no `all` (§6.1). Terms the walk does not follow (ptr, macros) are left
 * out.
 */
function queriesOf(record: ParsedSpfRecord): PlannedQuery[] {
  const queries: PlannedQuery[] = [];
  for (const mechanism of record.mechanisms) {
    if (mechanism.kind === 'all') return queries;
    if (
      mechanism.kind !== 'include' &&
      mechanism.kind !== 'a' &&
      mechanism.kind !== 'mx' &&
      mechanism.kind !== 'exists'
    )
      continue;
    if (mechanism.target?.macro || isSpecialName(mechanism.target)) continue;
    queries.push({
      kind: mechanism.kind === 'include' ? 'record' : mechanism.kind,
      name: mechanism.target?.name ?? null,
    });
  }
  if (record.redirect && !record.redirect.target.macro && !isSpecialName(record.redirect.target)) {
    queries.push({ kind: 'record', name: record.redirect.target.name });
  }
  return queries;
}

export class SpfLookups {
  readonly #resolver: Resolver;
  readonly #deadline: Deadline;
  readonly #deadlineMs: number;
  /** One lookup per name and type per evaluation, shared by the prefetch and the walk. */
  readonly #answers = new Map<string, Promise<Outcome<unknown>>>();
  readonly #prefetched = new Set<string>();
  #prefetchedTerms = 0;
  #finished = false;

  constructor(resolver: Resolver, deadline: Deadline, deadlineMs: number) {
    this.#resolver = resolver;
    this.#deadline = deadline;
    this.#deadlineMs = deadlineMs;
  }

  /** The evaluation is over: the prefetch starts nothing more. */
  finish(): void {
    this.#finished = true;
  }

  /** Why a lookup gave no usable answer, as a temperror's reason says it. */
  failure(status: Failure, name: string, type: RecordType): string {
    return status === 'deadline'
      ? `${name} ${type}: no answer within the ${this.#deadlineMs} ms deadline`
      : `${name} ${type}: ${status === 'timeout' ? 'DNS timeout' : status.toUpperCase()}`;
  }

  async record(domain: string): Promise<LoadedRecord> {
    return readRecord(await this.lookup(domain, 'TXT'));
  }

  lookup<T extends RecordType>(name: string, type: T): Promise<Outcome<RecordData[T]>> {
    const key = `${type} ${name}`;
    let answer = this.#answers.get(key);
    if (!answer) {
      const query = this.#resolver.query(name, type, this.#deadline.queryOptions);
      answer = this.#deadline.race(query, deadlinePassed);
      // A prefetched answer the walk never reads must not surface as an unhandled rejection;
      // one it reads still throws there.
      answer.catch(() => {});
      this.#answers.set(key, answer);
    }
    return answer as Promise<Outcome<RecordData[T]>>;
  }

  /**
   * Starts, without waiting, the lookups `domain`'s record will cause, and as included records
   * arrive, those of their terms: the in-order walk then mostly finds its answers there already,
   * and an include tree costs a round trip per level rather than one per term. Nothing new starts
   * past `maxPrefetchedTerms` or once the evaluation is over.
   */
  prefetch(domain: string): void {
    if (this.#prefetched.has(domain)) return;
    this.#prefetched.add(domain);
    void this.record(domain).then(
      (loaded) => {
        if (loaded.kind !== 'found') return;
        for (const query of queriesOf(loaded.parsed)) {
          if (this.#finished || this.#prefetchedTerms >= maxPrefetchedTerms) return;
          this.#prefetchedTerms++;
          const name = query.name ?? domain;
          if (query.kind === 'record') this.prefetch(name);
          else if (query.kind === 'a') this.#prefetchAddresses(name);
          else if (query.kind === 'exists') void this.lookup(name, 'A');
          else this.#prefetchMx(name);
        }
      },
      () => {},
    );
  }

  /** A name's A and AAAA records, asked ahead of the walk. */
  #prefetchAddresses(name: string): void {
    void this.lookup(name, 'A');
    void this.lookup(name, 'AAAA');
  }

  #prefetchMx(name: string): void {
    void this.lookup(name, 'MX').then(
      (outcome) => {
        if (outcome.status !== 'answer' || outcome.records.length > spfLimits.mxHosts) return;
        for (const host of mailHosts(outcome.records)) this.#prefetchAddresses(host);
      },
      () => {},
    );
  }
}
