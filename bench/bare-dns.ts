import { promises as dns } from 'node:dns';
import { reversedOctets } from '../src/reputation/ipv4.js';

/**
 * The physical limit: what one check costs in bare `node:dns` queries, with no service around it.
 * For one address, every IP zone's A query in parallel with PTR then the PTR name's A query, the
 * same questions the service asks (the TXT reason of a listing aside: the addresses measured
 * against this are listed nowhere).
 */

export interface BareDns {
  /** Resolves when every query of one check has an outcome (answer or error). */
  check(address: string): Promise<void>;
}

export function createBareDns(server: string, ipZones: readonly string[]): BareDns {
  const resolver = new dns.Resolver({ timeout: 1500, tries: 2 });
  resolver.setServers([server]);
  const ignore = () => undefined;
  return {
    async check(address) {
      const reversed = reversedOctets(address);
      const forward = resolver
        .resolvePtr(`${reversed}.in-addr.arpa`)
        .then((names) => Promise.all(names.map((name) => resolver.resolve4(name))), ignore)
        .catch(ignore);
      await Promise.all([
        ...ipZones.map((zone) => resolver.resolve4(`${reversed}.${zone}`).catch(ignore)),
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
