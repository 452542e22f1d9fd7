import { promises as dns } from 'node:dns';
import { createResolver, readConfig } from '../../src/node/index.js';
import { recordsOf } from '../../src/dns/index.js';
import { isIpv6 } from '../../src/lib/index.js';
import { reverseName, targetLabel } from '../../src/reputation/index.js';

/**
 * The reference of sections 1 and 2 (docs/benchmarks.md): the DNS work of one check, done by the
 * service's own resolver (the same configuration, UDP sockets, in-flight cap, cache and coalescing,
 * built by the same calls as src/services.ts) with nothing around it: every IP zone's A query in
 * parallel with PTR then the PTR names' A queries, the questions the service asks for an address
 * listed nowhere (the TXT reason of a listing aside: the measured addresses are listed nowhere).
 * The service does all of this and more (HTTP, the DNSBL engine, the score, the store) for each
 * check, so it can neither be faster than this one at a time (a floor for its latency) nor do more
 * of them per second at the same concurrency (a ceiling for its throughput). An IPv6 address is
 * asked of the IPv6 zones only, in nibble format, with PTR under ip6.arpa then AAAA.
 */

export interface DnsReference {
  /** Resolves when every query of one check has an outcome (answer or error). */
  check(address: string): Promise<void>;
}

export function createDnsReference(
  server: string,
  ipZones: readonly string[],
  ipv6Zones: readonly string[] = [],
): DnsReference {
  const config = readConfig({ DNS_SERVERS: server });
  const resolver = createResolver(config.dns);
  return {
    async check(address) {
      const ipv6 = isIpv6(address);
      const label = targetLabel({ kind: 'ip', address });
      const forward = resolver
        .query(reverseName(address), 'PTR')
        .then((ptr) =>
          Promise.all(recordsOf(ptr).map((name) => resolver.query(name, ipv6 ? 'AAAA' : 'A'))),
        );
      await Promise.all([
        ...(ipv6 ? ipv6Zones : ipZones).map((zone) => resolver.query(`${label}.${zone}`, 'A')),
        forward,
      ]);
    },
  };
}

/**
 * Waits (at most `maxMs`) until the server answers a fresh question within `quickMs`: after a
 * flood (the peer's bulk mode puts every query on the wire at once) its socket may hold a backlog
 * that would delay the next section's queries. Returns how long it waited.
 */
export async function waitUntilIdle(
  server: string,
  quickMs: number,
  maxMs: number,
): Promise<number> {
  const resolver = new dns.Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([server]);
  const started = performance.now();
  for (let probe = 0; performance.now() - started < maxMs; probe++) {
    const sent = performance.now();
    await resolver.resolve4(`idle-probe-${probe}-${Date.now()}.invalid`).catch(() => undefined);
    if (performance.now() - sent < quickMs) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return performance.now() - started;
}
