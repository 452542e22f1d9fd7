import type { DnsOutcome, Resolver } from '../../dns/index.js';
import {
  canonicalIpv6,
  compareIpv4,
  compareIpv6,
  isPublicIpv4,
  isPublicIpv6,
} from '../../lib/index.js';

/**
 * The public addresses a host name stands for, IPv4 (A) and IPv6 (AAAA). A name that resolves
 * only to non-public addresses is refused like a private address typed in directly: otherwise
 * anyone could map the service's internal network through DNS names that point into it.
 */
export type HostAddresses =
  | {
      ok: true;
      /** Public IPv4 addresses sorted numerically, then public IPv6 ones (RFC 5952 form). */
      addresses: string[];
      /**
       * The address a check of the name looks at: its first IPv4 address, or with none its first
       * IPv6 address (docs/ipv6.md).
       */
      checked: string;
    }
  | { ok: false; error: 'invalid_target' | 'dns_unavailable'; reason: string };

/**
 * The one answer about a name with no public address, whatever the reason: a name that does not
 * exist, one without A or AAAA records and one that resolves only to internal addresses must read
 * the same, or the service tells a caller which internal names exist (docs/checks.md).
 */
export function noPublicAddress(name: string): string {
  return `${name} has no public IP address`;
}

/** Public IPv4 addresses of an A answer, sorted numerically, no duplicates. */
export function publicIpv4Of(outcome: DnsOutcome<string>): string[] {
  if (outcome.status !== 'answer') return [];
  return [...new Set(outcome.records)].filter(isPublicIpv4).sort(compareIpv4);
}

/**
 * Public IPv6 addresses of an AAAA answer in RFC 5952 form, sorted numerically, no duplicates.
 * Whatever a hostile server writes passes the same rule as a typed address: an IPv4-mapped or
 * 6to4 answer is not public (src/lib/ipv6.ts).
 */
export function publicIpv6Of(outcome: DnsOutcome<string>): string[] {
  if (outcome.status !== 'answer') return [];
  const canonical = outcome.records.filter(isPublicIpv6).map((address) => canonicalIpv6(address));
  return [...new Set(canonical)].sort(compareIpv6);
}

const failed = (outcome: DnsOutcome<unknown>) =>
  outcome.status === 'timeout' || outcome.status === 'servfail' || outcome.status === 'refused';

/**
 * A name's public addresses. Its A and AAAA records are asked at once. IPv4 comes first when the
 * name has both (most lists cover only IPv4, and most mail still leaves over IPv4), so an A
 * lookup that failed is a failure to resolve the name even when AAAA answered: which address is
 * checked must not depend on which lookup happened to time out.
 */
export async function publicAddressesOf(resolver: Resolver, name: string): Promise<HostAddresses> {
  const [a, aaaa] = await Promise.all([resolver.query(name, 'A'), resolver.query(name, 'AAAA')]);
  const unavailable = (outcome: DnsOutcome<unknown>) => ({
    ok: false as const,
    error: 'dns_unavailable' as const,
    reason: `could not resolve ${name} (${outcome.status})`,
  });
  if (failed(a)) return unavailable(a);
  const ipv4 = publicIpv4Of(a);
  const ipv6 = publicIpv6Of(aaaa);
  const [checked] = [...ipv4, ...ipv6];
  if (checked !== undefined) return { ok: true, addresses: [...ipv4, ...ipv6], checked };
  if (failed(aaaa)) return unavailable(aaaa);
  return { ok: false, error: 'invalid_target', reason: noPublicAddress(name) };
}
