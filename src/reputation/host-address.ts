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

export async function publicAddressesOf(resolver: Resolver, name: string): Promise<HostAddresses> {
  const outcome = await resolver.query(name, 'A');
  switch (outcome.status) {
    case 'answer': {
      const addresses = [...new Set(outcome.records)].filter(isPublicIpv4).sort(compareIpv4);
      if (addresses.length > 0) return { ok: true, addresses };
      return {
        ok: false,
        error: 'invalid_target',
        reason: `${name} resolves only to non-public addresses`,
      };
    }
    case 'nxdomain':
      return { ok: false, error: 'invalid_target', reason: `${name} does not exist` };
    case 'nodata':
      return { ok: false, error: 'invalid_target', reason: `${name} has no IPv4 address` };
    default:
      return {
        ok: false,
        error: 'dns_unavailable',
        reason: `could not resolve ${name} (${outcome.status})`,
      };
  }
}
