import {
  type AddressRange,
  inAddressRanges,
  isPublicIpv4,
  isPublicIpv6,
} from '../../../lib/index.js';
import type { ProbeReach } from './contract.js';

/** A public address (the targets' RFC 6890 rules), or one PROBE_ALLOW_NETWORKS allows. */
export function probeReachable(
  allowNetworks: readonly AddressRange[],
): (address: string) => boolean {
  return (address) =>
    isPublicIpv4(address) || isPublicIpv6(address) || inAddressRanges(address, allowNetworks);
}

/** A public address by the targets' RFC 6890 rules: what every probe may reach. */
export function isPublicAddress(address: string): boolean {
  return isPublicIpv4(address) || isPublicIpv6(address);
}

/**
 * Where one check's probes may connect: the operator's (sent with OPERATOR_TOKEN) where
 * `reachable` allows, PROBE_ALLOW_NETWORKS included; anyone else's public addresses only, so no
 * anonymous caller reads an inside server's banner, certificate names or TLS errors.
 */
export function reachableBy(
  reachable: (address: string) => boolean,
  reach: ProbeReach,
): (address: string) => boolean {
  return reach.operator === true
    ? reachable
    : (address) => isPublicAddress(address) && reachable(address);
}
