import type { Resolver } from '../dns/index.js';
import { compareIpv4, isPublicIpv4 } from './ipv4.js';

/**
 * The public IPv4 addresses a host name stands for. A name that resolves only to non-public
 * addresses is refused like a private address typed in directly: otherwise anyone could map the
 * service's internal network through DNS names that point into it.
 */
export type HostAddresses =
  | { ok: true; addresses: string[] }
  | { ok: false; error: 'invalid_target' | 'dns_unavailable'; reason: string };

/**
 * The one answer about a name with no public address, whatever the reason: a name that does not
 * exist, one without A records and one that resolves only to internal addresses must read the
 * same, or the service tells a caller which internal names exist (docs/checks.md).
 */
export function noPublicAddress(name: string): string {
  return `${name} has no public IPv4 address`;
}

export async function publicAddressesOf(resolver: Resolver, name: string): Promise<HostAddresses> {
  const outcome = await resolver.query(name, 'A');
  switch (outcome.status) {
    case 'answer':
    case 'nxdomain':
    case 'nodata': {
      const addresses = [...new Set(outcome.status === 'answer' ? outcome.records : [])]
        .filter(isPublicIpv4)
        .sort(compareIpv4);
      if (addresses.length > 0) return { ok: true, addresses };
      return { ok: false, error: 'invalid_target', reason: noPublicAddress(name) };
    }
    default:
      return {
        ok: false,
        error: 'dns_unavailable',
        reason: `could not resolve ${name} (${outcome.status})`,
      };
  }
}
