import type { CatalogueEntry } from './list-health-schemas.js';
import { isAllowlist } from './return-codes.js';
import type { DnsblZone } from './zones.js';

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
