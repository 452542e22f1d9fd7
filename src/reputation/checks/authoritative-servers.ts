import { type Resolver, recordsOf } from '../../dns/index.js';
import { isPublicIpv4 } from '../../lib/index.js';

/**
 * The name servers of the zone a pool name lives in, to be asked directly: a recursive resolver
 * hands out the one subset it has cached, an authoritative server draws a fresh one per query.
 */

export interface NameServerOptions {
  /** 53 in service; tests point it at a fixture server's port. */
  nameServerPort: number;
  /**
   * Name server addresses that are not public (RFC 6890: private, loopback, link-local...) are
   * skipped unless this is set. Anyone can publish a zone whose NS records name 10.0.0.1 or
   * 127.0.0.1, and the service must not be made to send queries into its own network. Only tests,
   * whose fixture server listens on 127.0.0.1, set it.
   */
  allowNonPublicNameServers: boolean;
  /** Each server costs one query per round; a zone may list many. */
  maxAuthoritativeServers: number;
}

export interface AuthoritativeServers {
  /** The zone apex whose NS records were found, if any. */
  zone?: string;
  /** `ip:port` of the servers to ask, at most `maxAuthoritativeServers`. */
  servers: string[];
  /** Distinct non-public addresses left out. */
  skippedNonPublic: number;
}

/** RFC 1035 §2.3.4: 13 NS records is what a classic 512-byte UDP referral holds, the root's count. */
const maxNameServerHosts = 13;

function parentOf(name: string): string {
  return name.slice(name.indexOf('.') + 1);
}

/**
 * NS records exist only at a zone's apex (RFC 1034 §4.2.1, RFC 2181 §6.1), so a name inside a zone
 * has none of its own: walk up until a name has them. A name that does not exist or has no NS
 * records sends the walk to its parent; a failed query stops it, since it says nothing about where
 * the zone starts. The walk stops above the top-level domain: a TLD's servers only refer.
 */
async function zoneNameServerHosts(
  resolver: Resolver,
  name: string,
): Promise<{ zone: string; hosts: string[] } | undefined> {
  for (let candidate = name; candidate.includes('.'); candidate = parentOf(candidate)) {
    const outcome = await resolver.query(candidate, 'NS');
    if (outcome.status === 'answer') return { zone: candidate, hosts: outcome.records };
    if (outcome.status !== 'nxdomain' && outcome.status !== 'nodata') return undefined;
  }
  return undefined;
}

/** The addresses worth asking, in the order found: distinct, public unless allowed, capped. */
export function usableNameServers(
  addresses: readonly string[],
  options: NameServerOptions,
): { servers: string[]; skippedNonPublic: number } {
  const distinct = [...new Set(addresses)];
  const usable = options.allowNonPublicNameServers ? distinct : distinct.filter(isPublicIpv4);
  return {
    servers: usable
      .slice(0, options.maxAuthoritativeServers)
      .map((address) => `${address}:${options.nameServerPort}`),
    skippedNonPublic: distinct.length - usable.length,
  };
}

/** Finds `name`'s zone through NS and resolves its name server hosts' A records. */
export async function findAuthoritativeServers(
  resolver: Resolver,
  name: string,
  options: NameServerOptions,
): Promise<AuthoritativeServers> {
  const zone = await zoneNameServerHosts(resolver, name);
  if (!zone) return { servers: [], skippedNonPublic: 0 };
  const hosts = zone.hosts.slice(0, maxNameServerHosts);
  const addresses = await Promise.all(
    hosts.map(async (host) => recordsOf(await resolver.query(host, 'A'))),
  );
  return { zone: zone.zone, ...usableNameServers(addresses.flat(), options) };
}
