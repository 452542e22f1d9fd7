import type { DnsStatus, Resolver } from '../../dns/index.js';
import type { Deadline } from '../lookups/index.js';
import { isIpv6, reversedNibbles, reversedOctets } from '../targets/index.js';
import { type ListSide, sideName, sideZone } from './list-sides.js';
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
  /** Lists that gave a usable answer (listed or clean). */
  answered: number;
  /** Lists asked that gave no usable answer (timeout, SERVFAIL, an error code). */
  not_answered: number;
  /** Lists on hold: they stopped answering and were not asked. */
  on_hold: number;
  /** Lists not used: failed or not yet passed their self-test. */
  disabled: number;
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
 * answer honestly, so only its NXDOMAIN is "clean".
 */
export type ListGate =
  | { state: 'active' }
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
   * Each look-up's outcome, once: `timeout` when the check's deadline passed first, else its status
   * when it settles, even after the check (the hold rule).
   */
  onLookup?: (zone: DnsblZone, status: DnsStatus, side: ListSide) => void;
  /** Spamhaus Data Query Service key; never shown in any result or message. */
  spamhausDqsKey?: string;
}

const believed: ListGate = { state: 'active' };

/**
 * The name a list side is asked under: Spamhaus zones move to DQS when a key is configured (their
 * IPv6 side too: DQS answers both families under one name).
 */
export function queryZone(
  zone: DnsblZone,
  spamhausDqsKey?: string,
  side: ListSide = 'primary',
): string {
  const name = sideZone(zone, side);
  // A zone list without `dqs` labels still moves `<label>.spamhaus.org` zones to DQS.
  const label =
    (name === zone.zone ? zone.dqs : undefined) ?? /^([a-z-]+)\.spamhaus\.org$/.exec(name)?.[1];
  return spamhausDqsKey && label ? `${spamhausDqsKey}.${label}.dq.spamhaus.net` : name;
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
  const { resolver, zones, gate, onLookup, spamhausDqsKey } = options;
  // Worked out once, not once per query of every check.
  const zonesByType = {
    ip: zones.filter((zone) => zone.type === 'ip'),
    domain: zones.filter((zone) => zone.type === 'domain'),
  };
  const keyPattern = spamhausDqsKey
    ? new RegExp(spamhausDqsKey.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi')
    : undefined;
  const askedZone = new Map(zones.map((zone) => [zone, queryZone(zone, spamhausDqsKey)]));
  const askedIpv6Zone = new Map(
    zones.map((zone) => [zone, queryZone(zone, spamhausDqsKey, 'ipv6')]),
  );

  async function checkZone(
    zone: DnsblZone,
    label: string,
    side: ListSide,
    deadline: Deadline,
  ): Promise<ListResult> {
    const base: ListResult = {
      zone: sideZone(zone, side),
      name: sideName(zone, side),
      type: zone.type,
      severity: zone.severity,
      status: 'clean',
      ...(zone.delistUrl ? { delist_url: zone.delistUrl } : {}),
    };
    if (side === 'ipv6' && zone.ipv6 === undefined) {
      return { ...base, status: 'disabled', not_covered: true, error: notCoveredReason };
    }
    const standing = gate ? gate(zone, side) : believed;
    if (standing.state === 'disabled')
      return { ...base, status: 'disabled', error: standing.reason };
    if (standing.state === 'on_hold') {
      return { ...base, status: 'timeout', on_hold: true, error: standing.reason };
    }

    const name = `${label}.${(side === 'ipv6' ? askedIpv6Zone : askedZone).get(zone)}`;
    const lookup = resolver.query(name, 'A', deadline.queryOptions);
    // Each look-up is told once: as a timeout when the check's deadline passes first (it did not
    // answer in time for the check), else with its outcome, even one that comes after the check.
    let told = false;
    const tell = (status: DnsStatus) => {
      if (told || !onLookup) return;
      told = true;
      onLookup(zone, status, side);
    };
    if (onLookup)
      lookup.then(
        (answered) => tell(answered.status),
        () => undefined,
      );
    const outcome = await deadline.race(lookup, null);
    if (outcome === null) tell('timeout');
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
    const graded = reading.grade ? { grade: reading.grade } : {};
    if (reading.status === 'clean') return { ...base, ...graded, codes };
    const reason = await fetchReason(name, deadline);
    return {
      ...base,
      ...graded,
      status: 'listed',
      codes,
      listings: reading.listings,
      ...(reason ? { reason } : {}),
    };
  }

  /** The TXT reason is a courtesy: a listing stands without it when it does not come in time. */
  async function fetchReason(name: string, deadline: Deadline): Promise<string | undefined> {
    const outcome = await deadline.race(resolver.query(name, 'TXT', deadline.queryOptions), null);
    if (outcome?.status !== 'answer') return undefined;
    return hideKey(outcome.records.join(' '));
  }

  /**
   * A list may echo the queried name in its TXT reason, in any case (DNS names compare
   * case-insensitively, RFC 4343 §3, and a server may answer with the case it likes): the DQS key
   * inside it stays secret whatever its case.
   */
  function hideKey(text: string): string {
    return keyPattern ? text.replace(keyPattern, '<key>') : text;
  }

  return {
    async check(target, deadline) {
      const label = targetLabel(target);
      const side: ListSide = target.kind === 'ip' && isIpv6(target.address) ? 'ipv6' : 'primary';
      const lists = await Promise.all(
        zonesByType[target.kind].map((zone) => checkZone(zone, label, side, deadline)),
      );
      return { lists, ...countsOf(lists) };
    },
  };
}

/**
 * How many lists listed, answered, did not answer, are on hold or disabled, and how many do not
 * cover the target at all (left out of `total`).
 */
export function countsOf(lists: readonly ListResult[]): Omit<DnsblReport, 'lists'> {
  const counts = {
    listed: 0,
    answered: 0,
    not_answered: 0,
    on_hold: 0,
    disabled: 0,
    not_covered: 0,
  };
  for (const list of lists) {
    if (list.status === 'listed') counts.listed++;
    if (list.status === 'listed' || list.status === 'clean') counts.answered++;
    else if (list.not_covered) counts.not_covered++;
    else if (list.status === 'disabled') counts.disabled++;
    else if (list.on_hold) counts.on_hold++;
    else counts.not_answered++;
  }
  return { ...counts, total: lists.length - counts.not_covered };
}
