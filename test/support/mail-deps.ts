import type { MemoryDns } from '../../fixtures/memory-dns.js';
import { createDnsblEngine } from '../../src/reputation/lists/dnsbl.js';
import type { DnsblZone } from '../../src/reputation/lists/zones.js';
import type { MailCheckDeps } from '../../src/reputation/mail/index.js';
import { memoryResolver } from './memory-resolver.js';

/**
 * The mail check's dependencies over the DNS world in memory, for the suites about what it reads
 * in DNS: no SMTP (the runtime says so, as Workers' does) and no policy host, so no probe connects
 * anywhere; the MTA-STS policy is asked for only where a world publishes an `_mta-sts` record.
 */
export function memoryMailDeps(dns: MemoryDns, zones: readonly DnsblZone[]): MailCheckDeps {
  const resolver = memoryResolver(dns, 1000);
  return {
    resolver,
    dnsbl: createDnsblEngine({ resolver, zones: [...zones] }),
    deadlineMs: 3000,
    probeDeadlineMs: 3000,
    now: () => new Date('2026-11-27T10:00:00Z'),
    reachable: () => false,
    smtp: { unavailable: 'TCP to port 25 is not allowed in this test' },
    policy: { fetch: async () => ({ ok: false, reason: 'no policy server in this world' }) },
  };
}
