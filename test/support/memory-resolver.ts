import { type CachingResolver, withResolverStack } from '../../src/dns/index.js';
import { maxInFlight } from '../../src/node/dns/node-dns.js';
import { type MemoryDns, createMemoryDns } from '../../fixtures/memory-dns.js';
import type { FixtureZone } from '../../fixtures/dns-server.js';

/**
 * The fixture DNS world in this process (fixtures/memory-dns.ts), for the unit tests of logic
 * that asks the DNS but is not about the wire: the same zones, behaviours, latencies and query log
 * as the fixture server, with no socket between.
 */
export function memoryWorld(zones: FixtureZone[] = [], latencyMs = 0): MemoryDns {
  return createMemoryDns({ zones, latencyMs, timeoutMs: 1000 });
}

/**
 * A resolver with an empty cache over that world, stacked as `createResolver` stacks the UDP
 * transport (src/node/dns/resolver.ts: its in-flight cap, the answer cache, coalescing), whose
 * unanswered questions time out after `timeoutMs` as with `retries: 0`.
 */
export function memoryResolver(dns: MemoryDns, timeoutMs: number): CachingResolver {
  return withResolverStack(dns.transport(timeoutMs), { maxInFlight: maxInFlight.udp });
}
