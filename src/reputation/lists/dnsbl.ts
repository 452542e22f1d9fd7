import {
  askResolver,
  type DnsOutcome,
  type DnsStatus,
  type OutcomeListener,
  type Resolver,
} from '../../dns/index.js';
import { isIpv6, reversedNibbles, reversedOctets } from '../../lib/index.js';
import type { Deadline } from '../lookups/index.js';
import { hideKeys, type ListKeys, missingKey, missingKeyReason } from './list-keys.js';
import { type ListSide, sideName, sideZone } from './list-sides.js';
import { operatorPages } from './operator-pages.js';
import type { ListResult } from '../results/index.js';
import { readAnswer } from './return-codes.js';
import type { DnsblZone } from './zones.js';

/**
 * The DNSBL engine: every zone of a check asked at once, each answer read through the zone's code
 * table, the TXT reason fetched for listings, all within the check's deadline.
 */

export type { ListResult, ListStatus } from '../results/index.js';

export interface DnsblReport {
  lists: ListResult[];
  /** Lists that list the target. */
  listed: number;
  /** Allowlists that vouch for the target: answered, never listed. */
  allowlisted: number;
  /** Lists that gave a usable answer (listed, allowlisted or clean). */
  answered: number;
  /** Lists asked that gave no usable answer (timeout, SERVFAIL, an error code). */
  not_answered: number;
  /** Lists on hold: they stopped answering and were not asked. */
  on_hold: number;
  /** Lists not asked: failed or not yet passed their self-test, or waiting for a key. */
  disabled: number;
  /** Of the disabled lists, those that answer only with a key that is not set. */
  needs_key: number;
  /** Lists that do not answer for the address's family (IPv6): in `lists`, not in `total`. */
  not_covered: number;
  /**
   * The lists that cover the target: answered + not_answered + on_hold + disabled. Lists that do
   * not cover it (`not_covered`) are shown in `lists` but not counted here.
   */
  total: number;
}

/** `address`: a dotted quad, or an IPv6 address in RFC 5952 form. */
export type DnsblTarget = { kind: 'ip'; address: string } | { kind: 'domain'; name: string };

export interface DnsblEngine {
  check(target: DnsblTarget, deadline: Deadline): Promise<DnsblReport>;
}

/**
 * Whether a list may be asked now (zone-monitor.ts decides): only an `active` list is proven to
 * answer honestly, so only its NXDOMAIN is "clean". `timeoutMs`: how long a look-up on it waits,
 * by its own measured latency (side-standings.ts); without it, the resolver's timeout.
 */
export type ListGate =
  | { state: 'active'; timeoutMs?: number }
  | { state: 'on_hold'; reason: string }
  | { state: 'disabled'; reason: string };

export interface DnsblEngineOptions {
  resolver: Resolver;
  zones: readonly DnsblZone[];
  /**
   * A list side's standing; without it every list is asked and believed (tools and benchmarks).
   * A list's IPv6 side is proven apart from its IPv4 side (list-sides.ts).
   */
  gate?: (zone: DnsblZone, side: ListSide) => ListGate;
  /**
   * Each look-up's outcome, once, as the check read it: `timeout` when the check's deadline
   * passed first, else its status (the hold rule counts them).
   */
  onLookup?: (zone: DnsblZone, status: DnsStatus, side: ListSide) => void;
  /**
   * The list keys configured (SPAMHAUS_DQS_KEY, ABUSIX_KEY): never shown in any result or
   * message. A keyed list without its key is `disabled`, never asked (list-keys.ts).
   */
  keys?: ListKeys;
}

const believed: ListGate = { state: 'active' };

/** Until a fan-out waits on its promise. */
const ignore = (): void => {};

/**
 * The name a list side is asked under: a keyed list with its key in front of its zone (its
 * `key.query`); Spamhaus zones moved to DQS when SPAMHAUS_DQS_KEY is set (their IPv6 side too:
 * DQS answers both families under one name).
 */
export function queryZone(
  zone: DnsblZone,
  keys: ListKeys = {},
  side: ListSide = 'primary',
): string {
  const name = sideZone(zone, side);
  if (zone.key) {
    const key = keys[zone.key.variable];
    return key ? `${key}.${name}` : name;
  }
  const dqsKey = keys.SPAMHAUS_DQS_KEY;
  // A zone list without `dqs` labels still moves `<label>.spamhaus.org` zones to DQS.
  const label =
    (name === zone.zone ? zone.dqs : undefined) ?? /^([a-z-]+)\.spamhaus\.org$/.exec(name)?.[1];
  return dqsKey && label ? `${dqsKey}.${label}.dq.spamhaus.net` : name;
}

/**
 * What goes in front of a zone: RFC 5782 §2.1 (IPv4: reversed octets), §2.4 (IPv6: reversed
 * nibbles), §2.3 (domains: the name).
 */
export function targetLabel(target: DnsblTarget): string {
  if (target.kind === 'domain') return target.name;
  return isIpv6(target.address) ? reversedNibbles(target.address) : reversedOctets(target.address);
}

/** Why a list that does not answer for IPv6 addresses is not asked about one. */
export const notCoveredReason = 'does not cover IPv6';

export function createDnsblEngine(options: DnsblEngineOptions): DnsblEngine {
  const { resolver, zones, gate, onLookup } = options;
  const keys = options.keys ?? {};
  // Worked out once, not once per query of every check.
  const zonesByType = {
    ip: zones.filter((zone) => zone.type === 'ip'),
    domain: zones.filter((zone) => zone.type === 'domain'),
  };
  const askedZone = new Map(zones.map((zone) => [zone, queryZone(zone, keys)]));
  const askedIpv6Zone = new Map(zones.map((zone) => [zone, queryZone(zone, keys, 'ipv6')]));

  /**
   * `shown`: the target as people write it, for the operator's lookup page. What is decided
   * without asking (a side not covered, a missing key, the gate) is returned as it is; otherwise
   * the list is asked, and its look-up (the resolver's listener) reads the answer in
   * `readOutcome` once it comes. The check's fan-out holds one promise, not one per list (nor a
   * race of each against the deadline).
   */
  function checkZone(
    fanOut: FanOut,
    index: number,
    zone: DnsblZone,
    label: string,
    shown: string,
    side: ListSide,
  ): ListResult | ListLookup {
    // Each list's result goes in `fanOut.lists` at `index`: decided here, or by its look-up.
    const base: ListResult = {
      zone: sideZone(zone, side),
      name: sideName(zone, side),
      type: zone.type,
      severity: zone.severity,
      status: 'clean',
    };
    if (side === 'ipv6' && zone.ipv6 === undefined) {
      return { ...base, status: 'disabled', not_covered: true, error: notCoveredReason };
    }
    const needed = missingKey(zone, keys);
    if (needed !== undefined) {
      return { ...base, status: 'disabled', key: needed, error: missingKeyReason(needed) };
    }
    const standing = gate ? gate(zone, side) : believed;
    if (standing.state === 'disabled')
      return { ...base, status: 'disabled', error: standing.reason };
    if (standing.state === 'on_hold') {
      return { ...base, status: 'timeout', on_hold: true, error: standing.reason };
    }

    const name = `${label}.${(side === 'ipv6' ? askedIpv6Zone : askedZone).get(zone)}`;
    const lookup = new ListLookup(fanOut, index, zone, side, base, name, shown);
    // Counted before it is asked: a cached answer is told before `askResolver` returns.
    fanOut.waiting++;
    fanOut.lookups.push(lookup);
    askResolver(
      resolver,
      name,
      'A',
      standing.timeoutMs === undefined
        ? fanOut.deadline.queryOptions
        : fanOut.deadline.queryOptionsWithin(standing.timeoutMs),
      lookup,
    );
    return lookup;
  }

  /**
   * One list's look-up, told once: with its outcome, or as a timeout when the check's deadline
   * passes first (it did not answer in time for the check). It is the resolver's listener, so an
   * answer reaches the check in one call, with no promise or race of its own.
   */
  class ListLookup implements OutcomeListener<string> {
    told = false;

    constructor(
      private readonly fanOut: FanOut,
      private readonly index: number,
      private readonly zone: DnsblZone,
      private readonly side: ListSide,
      private readonly base: ListResult,
      private readonly name: string,
      private readonly shown: string,
    ) {}

    answered(outcome: DnsOutcome<string> | null): void {
      if (this.told) return;
      this.told = true;
      const { fanOut, zone } = this;
      onLookup?.(zone, outcome === null ? 'timeout' : outcome.status, this.side);
      const result = readOutcome(zone, this.base, this.name, this.shown, fanOut.deadline, outcome);
      if (result instanceof Promise) {
        result.then(
          (read) => fanOut.heard(this.index, read),
          (error: unknown) => fanOut.failed(error),
        );
      } else fanOut.heard(this.index, result);
    }

    failed(error: unknown): void {
      if (this.told) return;
      this.told = true;
      this.fanOut.failed(error);
    }
  }

  /** A check's lists, in zone order, as they are decided; one promise for them all. */
  class FanOut {
    readonly lists: ListResult[] = [];
    readonly lookups: ListLookup[] = [];
    waiting = 0;
    resolve: (lists: ListResult[]) => void = ignore;
    reject: (error: unknown) => void = ignore;

    constructor(readonly deadline: Deadline) {}

    heard(index: number, result: ListResult): void {
      this.lists[index] = result;
      this.settledOne();
    }

    settledOne(): void {
      if (--this.waiting === 0) this.resolve(this.lists);
    }

    failed(error: unknown): void {
      this.reject(error);
    }

    /** The deadline passed: every look-up not yet told is told it timed out, in one step. */
    giveUp(): void {
      for (const lookup of this.lookups) lookup.answered(null);
    }
  }

  /** A list's answer (null: none before the check's deadline) read through its code table. */
  function readOutcome(
    zone: DnsblZone,
    base: ListResult,
    name: string,
    shown: string,
    deadline: Deadline,
    outcome: DnsOutcome<string> | null,
  ): ListResult | Promise<ListResult> {
    if (outcome === null || outcome.status === 'timeout') {
      return { ...base, status: 'timeout', error: 'no answer in time' };
    }
    if (outcome.status === 'servfail' || outcome.status === 'refused') {
      return {
        ...base,
        status: 'error',
        error: `the list's server answered ${outcome.status.toUpperCase()}`,
      };
    }
    if (outcome.status !== 'answer') return base;

    const codes = [...outcome.records].sort();
    const reading = readAnswer(zone, codes);
    if (reading.status === 'error')
      return { ...base, status: 'error', codes, error: reading.error };
    if (reading.status === 'allowlisted') {
      const { entries, trust } = reading;
      return { ...base, status: 'allowlisted', codes, trust, allowlist_entries: entries };
    }
    const graded = reading.grade ? { grade: reading.grade } : {};
    if (reading.status === 'clean') return { ...base, ...graded, codes };
    return fetchReason(name, deadline).then((reason) => ({
      ...base,
      ...graded,
      status: 'listed' as const,
      codes,
      listings: reading.listings,
      ...(reason ? { reason } : {}),
      ...operatorPages(zone, shown),
    }));
  }

  /** The TXT reason is a courtesy: a listing stands without it when it does not come in time. */
  async function fetchReason(name: string, deadline: Deadline): Promise<string | undefined> {
    const outcome = await deadline.race(resolver.query(name, 'TXT', deadline.queryOptions), null);
    if (outcome?.status !== 'answer') return undefined;
    // A list may echo the queried name in its TXT reason, in any case (names compare
    // case-insensitively, RFC 4343 §3): the key inside it stays secret whatever its case.
    return hideKeys(outcome.records.join(' '), keys);
  }

  return {
    async check(target, deadline) {
      const label = targetLabel(target);
      const shown = target.kind === 'ip' ? target.address : target.name;
      const side: ListSide = target.kind === 'ip' && isIpv6(target.address) ? 'ipv6' : 'primary';
      const fanOut = new FanOut(deadline);
      const finished = new Promise<ListResult[]>((resolve, reject) => {
        fanOut.resolve = resolve;
        fanOut.reject = reject;
      });
      // Held open until every list is asked, however many answer at once.
      fanOut.waiting = 1;
      const zonesAsked = zonesByType[target.kind];
      for (let index = 0; index < zonesAsked.length; index++) {
        const decided = checkZone(fanOut, index, zonesAsked[index]!, label, shown, side);
        if (!(decided instanceof ListLookup)) fanOut.lists[index] = decided;
      }
      fanOut.settledOne();
      if (fanOut.waiting > 0) deadline.whenPassed(() => fanOut.giveUp());
      const lists = await finished;
      return { lists, ...countsOf(lists) };
    },
  };
}

/**
 * How many lists listed, vouched for (allowlists), answered, did not answer, are on hold or
 * disabled, and how many do not cover the target at all (left out of `total`).
 */
export function countsOf(lists: readonly ListResult[]): Omit<DnsblReport, 'lists'> {
  const counts = {
    listed: 0,
    allowlisted: 0,
    answered: 0,
    not_answered: 0,
    on_hold: 0,
    disabled: 0,
    needs_key: 0,
    not_covered: 0,
  };
  for (const list of lists) {
    if (list.status === 'listed') counts.listed++;
    if (list.status === 'allowlisted') counts.allowlisted++;
    if (answeredUsably(list)) counts.answered++;
    else if (list.not_covered) counts.not_covered++;
    else if (list.status === 'disabled') {
      counts.disabled++;
      if (list.key !== undefined) counts.needs_key++;
    } else if (list.on_hold) counts.on_hold++;
    else counts.not_answered++;
  }
  return { ...counts, total: lists.length - counts.not_covered };
}

/**
 * How many lists of a report were sent a query: those that answered or did not in time. A list on
 * hold, disabled or not covering the target is reported without being asked.
 */
export function listsAsked(report: Pick<DnsblReport, 'answered' | 'not_answered'>): number {
  return report.answered + report.not_answered;
}

/** A usable answer: a listing, an allowlist's vouching, or NXDOMAIN from a proven list. */
export function answeredUsably(list: Pick<ListResult, 'status'>): boolean {
  return list.status === 'listed' || list.status === 'allowlisted' || list.status === 'clean';
}
