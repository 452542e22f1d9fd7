import type { Resolver } from '../dns/index.js';
import type { Deadline } from './deadline.js';
import { reversedOctets } from './ipv4.js';
import { readAnswer } from './return-codes.js';
import type { DnsblZone } from './zones.js';
import type { ListResult } from './result-schemas.js';

/**
 * The DNSBL engine: every zone of a check asked at once, each answer read through the zone's code
 * table, the TXT reason fetched for listings, all within the check's deadline.
 */

export type { ListResult, ListStatus } from './result-schemas.js';

export interface DnsblReport {
  lists: ListResult[];
  /** Lists that list the target. */
  listed: number;
  /** Lists that gave a usable answer (listed or clean). */
  answered: number;
  /** Lists asked or disabled: every zone of the list of that type. */
  total: number;
}

export type DnsblTarget = { kind: 'ip'; address: string } | { kind: 'domain'; name: string };

export interface DnsblEngine {
  check(target: DnsblTarget, deadline: Deadline): Promise<DnsblReport>;
}

export interface DnsblEngineOptions {
  resolver: Resolver;
  zones: readonly DnsblZone[];
  /** Why a zone is disabled (failed self-test), or undefined when it is in use. */
  disabledReason: (zone: DnsblZone) => string | undefined;
  /** Spamhaus Data Query Service key; never shown in any result or message. */
  spamhausDqsKey?: string;
}

/** The name a zone is asked under: Spamhaus zones move to DQS when a key is configured. */
export function queryZone(zone: DnsblZone, spamhausDqsKey?: string): string {
  // A zone list without `dqs` labels still moves `<label>.spamhaus.org` zones to DQS.
  const label = zone.dqs ?? /^([a-z-]+)\.spamhaus\.org$/.exec(zone.zone)?.[1];
  return spamhausDqsKey && label ? `${spamhausDqsKey}.${label}.dq.spamhaus.net` : zone.zone;
}

/** What goes in front of a zone: RFC 5782 §2.1 (IPv4: reversed octets), §2.3 (domains: the name). */
function targetLabel(target: DnsblTarget): string {
  return target.kind === 'ip' ? reversedOctets(target.address) : target.name;
}

export function createDnsblEngine(options: DnsblEngineOptions): DnsblEngine {
  const { resolver, zones, disabledReason, spamhausDqsKey } = options;
  // Worked out once, not once per query of every check.
  const zonesByType = {
    ip: zones.filter((zone) => zone.type === 'ip'),
    domain: zones.filter((zone) => zone.type === 'domain'),
  };
  const askedZone = new Map(zones.map((zone) => [zone, queryZone(zone, spamhausDqsKey)]));

  async function checkZone(
    zone: DnsblZone,
    label: string,
    deadline: Deadline,
  ): Promise<ListResult> {
    const base: ListResult = {
      zone: zone.zone,
      name: zone.name,
      type: zone.type,
      severity: zone.severity,
      status: 'clean',
      ...(zone.delistUrl ? { delist_url: zone.delistUrl } : {}),
    };
    const disabled = disabledReason(zone);
    if (disabled !== undefined) return { ...base, status: 'disabled', error: disabled };

    const name = `${label}.${askedZone.get(zone)}`;
    const outcome = await deadline.race(resolver.query(name, 'A'), null);
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
    const outcome = await deadline.race(resolver.query(name, 'TXT'), null);
    if (outcome?.status !== 'answer') return undefined;
    return hideKey(outcome.records.join(' '));
  }

  /** A list may echo the queried name in its TXT reason; the DQS key inside it stays secret. */
  function hideKey(text: string): string {
    return spamhausDqsKey ? text.split(spamhausDqsKey).join('<key>') : text;
  }

  return {
    async check(target, deadline) {
      const label = targetLabel(target);
      const lists = await Promise.all(
        zonesByType[target.kind].map((zone) => checkZone(zone, label, deadline)),
      );
      return {
        lists,
        listed: lists.filter((list) => list.status === 'listed').length,
        answered: lists.filter((list) => list.status === 'listed' || list.status === 'clean')
          .length,
        total: lists.length,
      };
    },
  };
}
