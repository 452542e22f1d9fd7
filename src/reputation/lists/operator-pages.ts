import { lookupPlaceholder, type DnsblZone } from './zones.js';

/**
 * Where a listed party goes next: the operator's page about the target (why it is listed), and
 * the operator's page for asking for removal. Both come from the zone list (`lookupUrl`,
 * `delistUrl`, docs/zone-list.md).
 */

export interface OperatorPages {
  lookup_url?: string;
  delist_url?: string;
}

/**
 * The lookup page with the target filled in where `{ip}`, `{domain}` or `{target}` stands,
 * URL-encoded (an IPv6 address's colons too), so the page opens on the target's own entry.
 */
export function lookupPageOf(
  zone: Pick<DnsblZone, 'lookupUrl'>,
  target: string,
): string | undefined {
  return zone.lookupUrl?.replace(lookupPlaceholder, () => encodeURIComponent(target));
}

/** The pages a listing of `target` on `zone` points to; none the zone list does not give. */
export function operatorPages(
  zone: Pick<DnsblZone, 'lookupUrl' | 'delistUrl'>,
  target: string,
): OperatorPages {
  const lookup = lookupPageOf(zone, target);
  return {
    ...(lookup ? { lookup_url: lookup } : {}),
    ...(zone.delistUrl ? { delist_url: zone.delistUrl } : {}),
  };
}
