import type { ListRecord, ListStanding } from './list-health.js';
import type { CatalogueEntry, ListHealth, SideHealth } from './list-health-schemas.js';
import { type ListSide, sideName, sideZone } from './list-sides.js';
import type { ListTraffic } from './list-stats.js';
import { isAllowlist } from './return-codes.js';
import { positiveEntry } from './self-test.js';
import type { DnsblZone } from './zones.js';

/**
 * `GET /lists` as a projection of what the zone monitor knows: each list from the zone list
 * (its catalogue entry) beside each of its sides' health (standing, last self-test, last hour's
 * traffic). The monitor holds the state; this file only shapes it (list-health-schemas.ts).
 */

/**
 * What `GET /lists` says of a list from the zone list alone, beside its health: what it lists,
 * its terms, the operator's pages, whether it is an allowlist and which key it needs
 * (docs/zone-list.md). Null where the zone list does not say.
 */
export function catalogueEntry(zone: DnsblZone): CatalogueEntry {
  return {
    severity: zone.severity,
    allowlist: isAllowlist(zone),
    key: zone.key?.variable ?? null,
    lists: zone.lists ?? null,
    policy: zone.policy ?? null,
    source: zone.source ?? null,
    lookup_url: zone.lookupUrl ?? null,
    delist_url: zone.delistUrl ?? null,
  };
}

/** One list side as the monitor knows it. */
export interface SideReading {
  /** Its state and why; a keyed list without its key reads `disabled` with the variable to set. */
  standing: ListStanding;
  /** Its self-test record; none for a side that is never asked (its key is not set). */
  record: ListRecord | undefined;
  /** The last hour of its look-ups, when they are counted. */
  traffic: ListTraffic | undefined;
}

/** A list as `GET /lists` shows it: its catalogue entry, its primary side, its IPv6 side if any. */
export function listHealth(zone: DnsblZone, read: (side: ListSide) => SideReading): ListHealth {
  return {
    zone: zone.zone,
    name: zone.name,
    type: zone.type,
    ...catalogueEntry(zone),
    ...sideHealth(zone, 'primary', read('primary')),
    ipv6: zone.ipv6
      ? {
          zone: sideZone(zone, 'ipv6'),
          name: sideName(zone, 'ipv6'),
          source: zone.ipv6.source,
          ...sideHealth(zone, 'ipv6', read('ipv6')),
        }
      : null,
  };
}

/** A side as `GET /lists` shows it, without the list's name. */
function sideHealth(
  zone: DnsblZone,
  side: ListSide,
  { standing, record, traffic }: SideReading,
): SideHealth {
  return {
    state: standing.state,
    reason: standing.reason,
    test_entry: positiveEntry(zone, side) ?? null,
    last_self_test: record?.lastTest ? new Date(record.lastTest.at).toISOString() : null,
    last_self_test_result: record?.lastTest?.result ?? null,
    answers_last_hour: traffic?.answers ?? 0,
    timeouts_last_hour: traffic?.timeouts ?? 0,
    latency_ms: { p50: traffic?.p50 ?? null, p95: traffic?.p95 ?? null },
  };
}
