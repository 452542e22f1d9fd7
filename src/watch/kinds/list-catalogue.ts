import { isIpv6 } from '../../lib/index.js';
import { type DnsblZone, sideName, sideZone } from '../../reputation/index.js';

/**
 * What the watch needs of the zone list beside a check's result: which IP lists a sender address
 * is asked on (a domain result names only those that list it or did not answer), and where each
 * list's delisting form is (an address's summary does not carry it).
 */
export interface ListCatalogue {
  /** The lists an address is asked on, by the zone and name its results give them. */
  listsFor(address: string): readonly { zone: string; name: string }[];
  delistUrl(zone: string): string | undefined;
}

export function listCatalogue(zones: readonly DnsblZone[]): ListCatalogue {
  const ipZones = zones.filter((zone) => zone.type === 'ip');
  const ipv4 = ipZones.map((zone) => ({ zone: zone.zone, name: zone.name }));
  const ipv6 = ipZones
    .filter((zone) => zone.ipv6 !== undefined)
    .map((zone) => ({ zone: sideZone(zone, 'ipv6'), name: sideName(zone, 'ipv6') }));
  const delistUrls = new Map<string, string>();
  for (const zone of zones) {
    if (!zone.delistUrl) continue;
    delistUrls.set(zone.zone, zone.delistUrl);
    delistUrls.set(sideZone(zone, 'ipv6'), zone.delistUrl);
  }
  return {
    listsFor: (address) => (isIpv6(address) ? ipv6 : ipv4),
    delistUrl: (zone) => delistUrls.get(zone),
  };
}
