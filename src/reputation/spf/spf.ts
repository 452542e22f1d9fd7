import type { DnsOutcome, MxRecord, RecordData, RecordType, Resolver } from '../../dns/index.js';
import { isPublicIpv4, isPublicIpv6, isSpecialUseName } from '../../lib/index.js';
import { createDeadline, type Deadline } from '../lookups/index.js';
import {
  clip,
  maxTermChars,
  type SpfError,
  type SpfExpansion,
  type SpfTermAt,
} from '../results/index.js';
import {
  type DomainSpec,
  ip4Network,
  ip6Network,
  type ParsedSpfRecord,
  parseSpfRecord,
  selectSpfRecord,
  type SpfMechanism,
} from './spf-record.js';

/**
 * SPF expansion (RFC 7208): the addresses a domain's SPF record authorises to send its mail. The
 * record, its includes and its redirect are walked the way a receiver's check_host() (§4) walks
 * them for an address that no term matches: the walk that evaluates every term, and the one in
 * which the processing limits (§4.6.4) bite. A limit reached is reported where it happened,
 * together with everything found before it.
 */

export type { SpfError, SpfExpansion, SpfTermAt } from '../results/index.js';

export interface SpfOptions {
  /** Everything not answered by then is given up and reported as a temperror. */
  deadlineMs?: number;
  /** The check this evaluation is part of: its deadline bounds this one too. */
  within?: Deadline;
}

export const defaultDeadlineMs = 3000;

/** §4.6.4: DNS-querying terms per evaluation (include, a, mx, ptr, exists, redirect). */
const maxDnsTerms = 10;
/** §4.6.4: "void lookups", the RECOMMENDED default. */
const maxVoidLookups = 2;
/** §4.6.4: address lookups one mx term may cause. */
const maxMxHosts = 10;
/**
 * Lookups started ahead of the walk. Twice the terms the walk itself may evaluate: enough for the
 * terms of a record and those of its includes, little for a sprawling or hostile tree.
 */
const maxPrefetchedTerms = 2 * maxDnsTerms;

const deadlinePassed = { status: 'deadline' } as const;
type Outcome<T> = DnsOutcome<T> | typeof deadlinePassed;
/** No usable answer: §5 makes each of these a temperror. */
type Failure = Exclude<Outcome<unknown>['status'], 'answer' | 'nxdomain' | 'nodata'>;

type LoadedRecord =
  | { kind: 'found'; text: string; parsed: ParsedSpfRecord }
  | { kind: 'invalid'; text: string; term: string | null; reason: string }
  /** `void`: the TXT lookup itself answered NXDOMAIN or no records. */
  | { kind: 'none'; void: boolean }
  | { kind: 'multiple'; count: number }
  | { kind: 'failed'; status: Failure };

/** `matchedAll`: a pass `all` matches every address, so nothing after it is ever evaluated. */
type Flow = 'continue' | 'matchedAll';

/** Ends the walk; caught once, in `run`. */
/** The public addresses of an answer, or null (void) when it has none. */
function publicOnly(addresses: string[] | null): string[] | null {
  const usable = addresses?.filter(isPublicIpv4) ?? [];
  return usable.length > 0 ? usable : null;
}

class SpfStop extends Error {
  constructor(readonly detail: SpfError) {
    super(detail.reason);
  }
}

function stop(kind: SpfError['kind'], at: SpfTermAt, reason: string): SpfStop {
  return new SpfStop({ kind, reason, at: at.domain, term: at.term });
}

/** A term as a result shows it: a record can hold a term of thousands of characters. */
function termAt(text: string, domain: string): SpfTermAt {
  return { term: clip(text, maxTermChars), domain };
}

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
function mailHosts(exchangers: readonly MxRecord[]): string[] {
  return exchangers
    .map((mx) => mx.exchange.toLowerCase().replace(/\.$/, ''))
    .filter((host) => host !== '' && !isSpecialUseName(host));
}

/** A lookup a term will cause: an included or redirected-to record, or addresses. */
interface PlannedQuery {
  kind: 'record' | 'a' | 'mx';
  /** null: the record's own domain. */
  name: string | null;
}

/**
 * The lookups a record's terms will cause, in order: up to its first `all` (§5.1), then its
 * redirect when it has no `all` (§6.1). Terms the walk does not follow (exists, ptr, macros) are
 * left out.
 */
function queriesOf(record: ParsedSpfRecord): PlannedQuery[] {
  const queries: PlannedQuery[] = [];
  for (const mechanism of record.mechanisms) {
    if (mechanism.kind === 'all') return queries;
    if (mechanism.kind !== 'include' && mechanism.kind !== 'a' && mechanism.kind !== 'mx') continue;
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

function isSpecialName(target: DomainSpec | null | undefined): boolean {
  return target?.macro === false && isSpecialUseName(target.name);
}

/** The dual-cidr-length of an a or mx term (§5.6). */
interface Prefixes {
  ip4Prefix: number;
  ip6Prefix: number;
}

class SpfEvaluation {
  readonly #resolver: Resolver;
  readonly #deadline: Deadline;
  readonly #deadlineMs: number;
  /** One lookup per name and type per evaluation, shared by the prefetch and the walk. */
  readonly #answers = new Map<string, Promise<Outcome<unknown>>>();
  readonly #prefetched = new Set<string>();
  #prefetchedTerms = 0;
  #finished = false;

  readonly #ip4 = new Set<string>();
  readonly #ip6 = new Set<string>();
  readonly #domains = new Set<string>();
  readonly #notEnumerable: SpfTermAt[] = [];
  readonly #skipped: (SpfTermAt & { reason: string })[] = [];
  readonly #nonPass: SpfTermAt[] = [];
  #lookups = 0;
  #voidLookups = 0;

  constructor(resolver: Resolver, deadline: Deadline, deadlineMs: number) {
    this.#resolver = resolver;
    this.#deadline = deadline;
    this.#deadlineMs = deadlineMs;
  }

  /**
   * The AAAA lookups of a and mx terms that authorise (§5.3, §5.4: a receiver asks AAAA for an
   * IPv6 client). They are waited for once the walk is over, within the deadline, and never change
   * its course: the limits, void lookups and errors are those of the walk for an IPv4 client,
   * whose A lookups they are.
   */
  readonly #ipv6Lookups: Promise<void>[] = [];

  async run(domain: string): Promise<SpfExpansion> {
    const expansion = await this.#walk(domain);
    await Promise.all(this.#ipv6Lookups);
    return { ...expansion, ip6: [...this.#ip6] };
  }

  async #walk(domain: string): Promise<SpfExpansion> {
    try {
      this.#prefetch(domain);
      const loaded = await this.#record(domain);
      switch (loaded.kind) {
        case 'failed':
          return this.#result(domain, 'unavailable', null, {
            kind: 'temperror',
            reason: this.#failure(loaded.status, domain, 'TXT'),
            at: domain,
            term: null,
          });
        case 'none':
          return this.#result(domain, 'none', null);
        case 'multiple':
          // §4.5: several records are a permerror; none of them is used.
          return this.#result(domain, 'multiple', null, {
            kind: 'permerror',
            reason: `${loaded.count} SPF records; there must be one`,
            at: domain,
            term: null,
          });
        case 'invalid':
          return this.#result(domain, 'found', loaded.text, {
            kind: 'permerror',
            reason: `syntax error: ${loaded.reason}`,
            at: domain,
            term: loaded.term,
          });
        case 'found':
          this.#domains.add(domain);
          try {
            await this.#walkRecord(domain, loaded.parsed, [domain], true);
            return this.#result(domain, 'found', loaded.text);
          } catch (error) {
            if (error instanceof SpfStop) {
              return this.#result(domain, 'found', loaded.text, error.detail);
            }
            throw error;
          }
      }
    } finally {
      this.#finished = true;
    }
  }

  #result(
    domain: string,
    status: SpfExpansion['status'],
    record: string | null,
    error?: SpfError,
  ): SpfExpansion {
    return {
      domain,
      record,
      status,
      ip4: [...this.#ip4],
      ip6: [...this.#ip6],
      lookups: this.#lookups,
      voidLookups: this.#voidLookups,
      domains: [...this.#domains],
      notEnumerable: this.#notEnumerable,
      skipped: this.#skipped,
      nonPass: this.#nonPass,
      ...(error && { error }),
    };
  }

  async #walkRecord(
    domain: string,
    record: ParsedSpfRecord,
    chain: readonly string[],
    authorizing: boolean,
  ): Promise<Flow> {
    for (const mechanism of record.mechanisms) {
      if (mechanism.kind === 'all') {
        // §5.1: nothing after `all` is evaluated, and §6.1: a redirect beside it is ignored. A
        // pass `all` matches every address, so the include holding it matches too (§5.2) and
        // the evaluation ends there.
        if (mechanism.qualifier !== '+') return 'continue';
        if (authorizing) {
          this.#ip4.add('0.0.0.0/0');
          this.#ip6.add('::/0');
        }
        return 'matchedAll';
      }
      const flow = await this.#walkMechanism(domain, mechanism, chain, authorizing);
      if (flow === 'matchedAll') return flow;
    }
    // §6.1: the redirect is followed when no mechanism matched, which is the walk's premise.
    if (!record.redirect) return 'continue';
    const at = termAt(record.redirect.text, domain);
    this.#countLookup(at);
    const { target } = record.redirect;
    if (target.macro) return this.#skipMacro(at, authorizing);
    if (isSpecialUseName(target.name)) return this.#skipSpecialUse(at, authorizing);
    return this.#follow(at, target.name, chain, authorizing);
  }

  async #walkMechanism(
    domain: string,
    mechanism: Exclude<SpfMechanism, { kind: 'all' }>,
    chain: readonly string[],
    authorizing: boolean,
  ): Promise<Flow> {
    const at = termAt(mechanism.text, domain);
    // §4.6.2: only a match with the pass qualifier authorises. Mechanisms qualified -, ~ or ? are
    // evaluated all the same (a receiver evaluates them, and they count against the limits), but
    // the addresses they match are not senders, nor are those of the records they include.
    const pass = mechanism.qualifier === '+';
    if (authorizing && !pass) this.#nonPass.push(at);
    const senders = authorizing && pass;
    switch (mechanism.kind) {
      case 'ip4':
        if (senders) this.#ip4.add(mechanism.network);
        return 'continue';
      case 'ip6':
        if (senders) this.#ip6.add(mechanism.network);
        return 'continue';
    }
    // §4.6.4: every other mechanism queries DNS and counts, whether or not this walk follows it.
    this.#countLookup(at);
    if (mechanism.kind === 'exists' || mechanism.kind === 'ptr') {
      if (senders) this.#notEnumerable.push(at);
      return 'continue';
    }
    const target = mechanism.target ?? { macro: false, name: domain };
    if (target.macro) return this.#skipMacro(at, senders);
    if (isSpecialUseName(target.name)) return this.#skipSpecialUse(at, senders);
    switch (mechanism.kind) {
      case 'include':
        return this.#follow(at, target.name, chain, senders);
      case 'a':
        await this.#a(at, target.name, mechanism, senders);
        return 'continue';
      case 'mx':
        await this.#mx(at, target.name, mechanism, senders);
        return 'continue';
    }
  }

  /** §7: a macro expands to names built from the client address, sender or HELO name. */
  #skipMacro(at: SpfTermAt, authorizing: boolean): Flow {
    if (authorizing) {
      this.#skipped.push({ ...at, reason: 'macro: its target depends on the client and sender' });
    }
    return 'continue';
  }

  /**
   * A target under a special-use suffix (`.local`, `.internal`, ...) is not looked up: it names
   * nothing in public DNS, and on the service's own network it might name something.
   */
  #skipSpecialUse(at: SpfTermAt, authorizing: boolean): Flow {
    if (authorizing) this.#skipped.push({ ...at, reason: 'special-use name: not looked up' });
    return 'continue';
  }

  /** include (§5.2) and redirect (§6.1): the target's own record, walked in place. */
  async #follow(
    at: SpfTermAt,
    target: string,
    chain: readonly string[],
    authorizing: boolean,
  ): Promise<Flow> {
    // A domain already on the chain would recurse until the 10-term limit; say so at once.
    if (chain.includes(target)) {
      throw stop('permerror', at, `include loop: ${[...chain, target].join(' -> ')}`);
    }
    const loaded = await this.#record(target);
    switch (loaded.kind) {
      case 'failed':
        throw stop('temperror', at, this.#failure(loaded.status, target, 'TXT'));
      case 'none':
        if (loaded.void) this.#countVoid(at);
        // §5.2, §6.1: an include or redirect target without an SPF record is a permerror.
        throw stop('permerror', at, `${target} has no SPF record`);
      case 'multiple':
        throw stop('permerror', at, `${target} has ${loaded.count} SPF records; there must be one`);
      case 'invalid':
        throw stop(
          'permerror',
          {
            domain: target,
            term: loaded.term === null ? at.term : clip(loaded.term, maxTermChars),
          },
          `syntax error: ${loaded.reason}`,
        );
      case 'found':
        this.#domains.add(target);
        return this.#walkRecord(target, loaded.parsed, [...chain, target], authorizing);
    }
  }

  /**
   * §5.3: the target's A records, each widened to the term's IPv4 prefix, and its AAAA records,
   * widened to its IPv6 prefix. Non-public addresses are dropped, and a name that has only those
   * reads as one with none (a void lookup): whether a name points into a private network must not
   * show (docs/checks.md).
   */
  async #a(at: SpfTermAt, name: string, prefixes: Prefixes, senders: boolean): Promise<void> {
    if (senders) this.#ipv6Of(name, prefixes.ip6Prefix);
    const addresses = publicOnly(this.#answer(await this.#lookup(name, 'A'), at, name, 'A'));
    if (addresses === null) return this.#countVoid(at);
    if (senders) {
      for (const address of addresses) this.#ip4.add(ip4Network(address, prefixes.ip4Prefix));
    }
  }

  /** A name's public AAAA records as IPv6 senders, widened to `prefix`, whenever they come. */
  #ipv6Of(name: string, prefix: number): void {
    this.#ipv6Lookups.push(
      this.#lookup(name, 'AAAA').then(
        (outcome) => {
          if (outcome.status !== 'answer') return;
          for (const address of outcome.records.filter(isPublicIpv6)) {
            this.#ip6.add(ip6Network(address, prefix));
          }
        },
        () => {},
      ),
    );
  }

  /**
   * §5.4: the A records of the target's MX hosts, each widened to the term's IPv4 prefix, and
   * their AAAA records, to its IPv6 prefix.
   */
  async #mx(at: SpfTermAt, name: string, prefixes: Prefixes, senders: boolean): Promise<void> {
    const exchangers = this.#answer(await this.#lookup(name, 'MX'), at, name, 'MX');
    if (exchangers === null) return this.#countVoid(at);
    // §4.6.4: more than 10 address lookups for one mx term is a permerror; none is made.
    if (exchangers.length > maxMxHosts) {
      throw stop('permerror', at, `${name} has ${exchangers.length} MX hosts, over the 10 allowed`);
    }
    const hosts = mailHosts(exchangers);
    if (senders) for (const host of hosts) this.#ipv6Of(host, prefixes.ip6Prefix);
    const outcomes = await Promise.all(hosts.map((host) => this.#lookup(host, 'A')));
    outcomes.forEach((outcome, index) => {
      const host = hosts[index] ?? '';
      // §4.6.4 counts void lookups per term: an MX host without an address is not one.
      const addresses = publicOnly(this.#answer(outcome, at, host, 'A')) ?? [];
      if (!senders) return;
      for (const address of addresses) this.#ip4.add(ip4Network(address, prefixes.ip4Prefix));
    });
  }

  #countLookup(at: SpfTermAt): void {
    if (this.#lookups >= maxDnsTerms) {
      throw stop(
        'permerror',
        at,
        'more than 10 DNS-querying terms (include, a, mx, ptr, exists, redirect)',
      );
    }
    this.#lookups++;
  }

  #countVoid(at: SpfTermAt): void {
    this.#voidLookups++;
    if (this.#voidLookups > maxVoidLookups) {
      throw stop('permerror', at, 'more than 2 lookups answered NXDOMAIN or no records');
    }
  }

  /**
   * The records of an answer, or null for NXDOMAIN and NODATA (§4.6.4 void lookups). §5: any other
   * DNS failure, or no answer at all, ends the evaluation with a temperror.
   */
  #answer<T>(outcome: Outcome<T>, at: SpfTermAt, name: string, type: RecordType): T[] | null {
    switch (outcome.status) {
      case 'answer':
        return outcome.records;
      case 'nxdomain':
      case 'nodata':
        return null;
      default:
        throw stop('temperror', at, this.#failure(outcome.status, name, type));
    }
  }

  #failure(status: Failure, name: string, type: RecordType): string {
    return status === 'deadline'
      ? `${name} ${type}: no answer within the ${this.#deadlineMs} ms deadline`
      : `${name} ${type}: ${status === 'timeout' ? 'DNS timeout' : status.toUpperCase()}`;
  }

  async #record(domain: string): Promise<LoadedRecord> {
    return readRecord(await this.#lookup(domain, 'TXT'));
  }

  #lookup<T extends RecordType>(name: string, type: T): Promise<Outcome<RecordData[T]>> {
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
  #prefetch(domain: string): void {
    if (this.#prefetched.has(domain)) return;
    this.#prefetched.add(domain);
    void this.#record(domain).then(
      (loaded) => {
        if (loaded.kind !== 'found') return;
        for (const query of queriesOf(loaded.parsed)) {
          if (this.#finished || this.#prefetchedTerms >= maxPrefetchedTerms) return;
          this.#prefetchedTerms++;
          const name = query.name ?? domain;
          if (query.kind === 'record') this.#prefetch(name);
          else if (query.kind === 'a') this.#prefetchAddresses(name);
          else this.#prefetchMx(name);
        }
      },
      () => {},
    );
  }

  /** A name's A and AAAA records, asked ahead of the walk. */
  #prefetchAddresses(name: string): void {
    void this.#lookup(name, 'A');
    void this.#lookup(name, 'AAAA');
  }

  #prefetchMx(name: string): void {
    void this.#lookup(name, 'MX').then(
      (outcome) => {
        if (outcome.status !== 'answer' || outcome.records.length > maxMxHosts) return;
        for (const host of mailHosts(outcome.records)) this.#prefetchAddresses(host);
      },
      () => {},
    );
  }
}

/**
 * Expands `domain`'s SPF record into the addresses it authorises.
 *
 * @example
 * const spf = await expandSpf(resolver, 'example.com');
 * // spf.ip4: ['192.0.2.10', '198.51.100.0/24'], spf.error: undefined
 */
export async function expandSpf(
  resolver: Resolver,
  domain: string,
  options: SpfOptions = {},
): Promise<SpfExpansion> {
  const deadlineMs = options.deadlineMs ?? defaultDeadlineMs;
  const deadline = createDeadline(deadlineMs, options.within);
  try {
    const evaluation = new SpfEvaluation(resolver, deadline, deadlineMs);
    return await evaluation.run(domain.toLowerCase().replace(/\.$/, ''));
  } finally {
    deadline.clear();
  }
}
