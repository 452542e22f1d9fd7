import type { RecordType, Resolver } from '../../dns/index.js';
import { isPublicIpv4, isPublicIpv6, isSpecialUseName } from '../../lib/index.js';
import { createDeadline, type Deadline } from '../lookups/index.js';
import type { SpfExpansion, SpfTermAt } from '../results/index.js';
import { type Outcome, SpfLookups, mailHosts, spfLimits } from './spf-lookups.js';
import { ip4Network, ip6Network, type ParsedSpfRecord, type SpfMechanism } from './spf-record.js';
import { SpfStop, SpfTally, stop, termAt } from './spf-tally.js';

/**
 * SPF expansion (RFC 7208): the addresses a domain's SPF record authorises to send its mail. The
 * record, its includes and its redirect are walked the way a receiver's check_host() (§4) walks
 * them for an address that no term matches: the walk that evaluates every term, and the one in
 * which the processing limits (§4.6.4) bite. A limit reached is reported where it happened,
 * together with everything found before it (spf-tally.ts). Its lookups, and those started ahead
 * of it, are spf-lookups.ts.
 */

export type { SpfError, SpfExpansion, SpfTermAt } from '../results/index.js';

export interface SpfOptions {
  /** Everything not answered by then is given up and reported as a temperror. */
  deadlineMs?: number;
  /** The check this evaluation is part of: its deadline bounds this one too. */
  within?: Deadline;
}

export const defaultDeadlineMs = 3000;

/**
 * `matchedAll`: a pass `all` (or an `exists` whose target is there) matches every address, so
 * nothing after it is ever evaluated; `ended`: a term that is not pass matched every address,
 * which ends the record's evaluation (an include holding it does not match, §5.2).
 */
type Flow = 'continue' | 'matchedAll' | 'ended';

/** The public addresses of an answer, or null (void) when it has none. */
function publicOnly(addresses: string[] | null): string[] | null {
  const usable = addresses?.filter(isPublicIpv4) ?? [];
  return usable.length > 0 ? usable : null;
}

/** The dual-cidr-length of an a or mx term (§5.6). */
interface Prefixes {
  ip4Prefix: number;
  ip6Prefix: number;
}

class SpfEvaluation {
  readonly #dns: SpfLookups;
  readonly #found = new SpfTally();

  constructor(dns: SpfLookups) {
    this.#dns = dns;
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
    return { ...expansion, ip6: [...this.#found.ip6] };
  }

  async #walk(domain: string): Promise<SpfExpansion> {
    try {
      this.#dns.prefetch(domain);
      const loaded = await this.#dns.record(domain);
      switch (loaded.kind) {
        case 'failed':
          return this.#found.expansion(domain, 'unavailable', null, {
            kind: 'temperror',
            reason: this.#dns.failure(loaded.status, domain, 'TXT'),
            at: domain,
            term: null,
          });
        case 'none':
          return this.#found.expansion(domain, 'none', null);
        case 'multiple':
          // §4.5: several records are a permerror; none of them is used.
          return this.#found.expansion(domain, 'multiple', null, {
            kind: 'permerror',
            reason: `${loaded.count} SPF records; there must be one`,
            at: domain,
            term: null,
          });
        case 'invalid':
          return this.#found.expansion(domain, 'found', loaded.text, {
            kind: 'permerror',
            reason: `syntax error: ${loaded.reason}`,
            at: domain,
            term: loaded.term,
          });
        case 'found':
          this.#found.domains.add(domain);
          try {
            await this.#walkRecord(domain, loaded.parsed, [domain], true);
            return this.#found.expansion(domain, 'found', loaded.text);
          } catch (error) {
            if (error instanceof SpfStop) {
              return this.#found.expansion(domain, 'found', loaded.text, error.detail);
            }
            throw error;
          }
      }
    } finally {
      this.#dns.finish();
    }
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
          this.#found.ip4.add('0.0.0.0/0');
          this.#found.ip6.add('::/0');
        }
        return 'matchedAll';
      }
      const flow = await this.#walkMechanism(domain, mechanism, chain, authorizing);
      if (flow === 'matchedAll') return flow;
      if (flow === 'ended') return 'continue';
    }
    // §6.1: the redirect is followed when no mechanism matched, which is the walk's premise.
    if (!record.redirect) return 'continue';
    const at = termAt(record.redirect.text, domain);
    this.#found.countLookup(at);
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
    if (authorizing && !pass) this.#found.nonPass.push(at);
    const senders = authorizing && pass;
    switch (mechanism.kind) {
      case 'ip4':
        if (senders) this.#found.ip4.add(mechanism.network);
        return 'continue';
      case 'ip6':
        if (senders) this.#found.ip6.add(mechanism.network);
        return 'continue';
    }
    // §4.6.4: every other mechanism queries DNS and counts, whether or not this walk follows it.
    this.#found.countLookup(at);
    // ptr (§5.5) asks about the client's own address, and an exists with a macro (§5.7) builds its
    // target from it: which addresses they allow depends on the client.
    if (mechanism.kind === 'ptr' || (mechanism.kind === 'exists' && mechanism.target.macro)) {
      if (senders) this.#found.notEnumerable.push(at);
      return 'continue';
    }
    const target = mechanism.target ?? { macro: false, name: domain };
    if (target.macro) return this.#skipMacro(at, senders);
    if (isSpecialUseName(target.name)) return this.#skipSpecialUse(at, senders);
    switch (mechanism.kind) {
      case 'exists':
        return this.#exists(at, target.name, mechanism.qualifier === '+', authorizing);
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
      this.#found.skipped.push({
        ...at,
        reason: 'macro: its target depends on the client and sender',
      });
    }
    return 'continue';
  }

  /**
   * A target under a special-use suffix (`.local`, `.internal`, ...) is not looked up: it names
   * nothing in public DNS, and on the service's own network it might name something.
   */
  #skipSpecialUse(at: SpfTermAt, authorizing: boolean): Flow {
    if (authorizing) this.#found.skipped.push({ ...at, reason: 'special-use name: not looked up' });
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
    const loaded = await this.#dns.record(target);
    switch (loaded.kind) {
      case 'failed':
        throw stop('temperror', at, this.#dns.failure(loaded.status, target, 'TXT'));
      case 'none':
        if (loaded.void) this.#found.countVoid(at);
        // §5.2, §6.1: an include or redirect target without an SPF record is a permerror.
        throw stop('permerror', at, `${target} has no SPF record`);
      case 'multiple':
        throw stop('permerror', at, `${target} has ${loaded.count} SPF records; there must be one`);
      case 'invalid':
        throw stop(
          'permerror',
          loaded.term === null ? { domain: target, term: at.term } : termAt(loaded.term, target),
          `syntax error: ${loaded.reason}`,
        );
      case 'found':
        this.#found.domains.add(target);
        return this.#walkRecord(target, loaded.parsed, [...chain, target], authorizing);
    }
  }

  /**
   * §5.7: `exists` matches when its target has an A record, whatever the address (an A query even
   * for an IPv6 client). Without a macro the target is the same for every client, so it matches
   * all of them or none: with the pass qualifier it authorises every address, as `+all` does;
   * with another it ends the evaluation for every address. NXDOMAIN or no records is a void lookup
   * (§4.6.4), and a failed lookup a temperror (§5).
   */
  async #exists(at: SpfTermAt, name: string, pass: boolean, authorizing: boolean): Promise<Flow> {
    const records = this.#answer(await this.#dns.lookup(name, 'A'), at, name, 'A');
    if (records === null || records.length === 0) {
      this.#found.countVoid(at);
      return 'continue';
    }
    if (!pass) return 'ended';
    if (authorizing) {
      this.#found.ip4.add('0.0.0.0/0');
      this.#found.ip6.add('::/0');
    }
    return 'matchedAll';
  }

  /**
   * §5.3: the target's A records, each widened to the term's IPv4 prefix, and its AAAA records,
   * widened to its IPv6 prefix. Non-public addresses are dropped, and a name that has only those
   * reads as one with none (a void lookup): whether a name points into a private network must not
   * show (docs/checks.md).
   */
  async #a(at: SpfTermAt, name: string, prefixes: Prefixes, senders: boolean): Promise<void> {
    if (senders) this.#ipv6Of(name, prefixes.ip6Prefix);
    const addresses = publicOnly(this.#answer(await this.#dns.lookup(name, 'A'), at, name, 'A'));
    if (addresses === null) return this.#found.countVoid(at);
    if (senders) {
      for (const address of addresses) this.#found.ip4.add(ip4Network(address, prefixes.ip4Prefix));
    }
  }

  /** A name's public AAAA records as IPv6 senders, widened to `prefix`, whenever they come. */
  #ipv6Of(name: string, prefix: number): void {
    this.#ipv6Lookups.push(
      this.#dns.lookup(name, 'AAAA').then(
        (outcome) => {
          if (outcome.status !== 'answer') return;
          for (const address of outcome.records.filter(isPublicIpv6)) {
            this.#found.ip6.add(ip6Network(address, prefix));
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
    const exchangers = this.#answer(await this.#dns.lookup(name, 'MX'), at, name, 'MX');
    if (exchangers === null) return this.#found.countVoid(at);
    // §4.6.4: more than 10 address lookups for one mx term is a permerror; none is made.
    if (exchangers.length > spfLimits.mxHosts) {
      throw stop('permerror', at, `${name} has ${exchangers.length} MX hosts, over the 10 allowed`);
    }
    const hosts = mailHosts(exchangers);
    if (senders) for (const host of hosts) this.#ipv6Of(host, prefixes.ip6Prefix);
    const outcomes = await Promise.all(hosts.map((host) => this.#dns.lookup(host, 'A')));
    outcomes.forEach((outcome, index) => {
      const host = hosts[index] ?? '';
      // §4.6.4 counts void lookups per term: an MX host without an address is not one.
      const addresses = publicOnly(this.#answer(outcome, at, host, 'A')) ?? [];
      if (!senders) return;
      for (const address of addresses) this.#found.ip4.add(ip4Network(address, prefixes.ip4Prefix));
    });
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
        throw stop('temperror', at, this.#dns.failure(outcome.status, name, type));
    }
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
    const evaluation = new SpfEvaluation(new SpfLookups(resolver, deadline, deadlineMs));
    return await evaluation.run(domain.toLowerCase().replace(/\.$/, ''));
  } finally {
    deadline.clear();
  }
}
