import { afterAll, describe, expect, it } from 'vitest';
import type { FixtureRecords, FixtureZone } from '../../../fixtures/dns-server.js';
import { createMemoryDns, type MemoryDns } from '../../../fixtures/memory-dns.js';
import { withResolverStack } from '../../../src/dns/index.js';
import { inAddressRanges, parseAddressRange } from '../../../src/lib/index.js';
import { expandSpf } from '../../../src/reputation/spf/spf.js';
import suite from '../../fixtures/peers/rfc7208-tests.json' with { type: 'json' };

/**
 * The RFC 7208 test suite (test/fixtures/peers/NOTICE.md), the vectors pyspf and mailauth both run,
 * read by the expansion: each section's zone data served from the DNS world in memory, each
 * test's sending domain expanded, and the expansion's reading of the test's client address held
 * to the suite's result. The expansion walks a record as check_host() does for a client that
 * matches no term (docs/checks.md), so what it can say of one address is: none, permerror or
 * temperror for the record, pass for an address it authorises, and "not pass" for any other
 * (fail, softfail and neutral depend on the qualifier that would match). The tests it cannot
 * judge that way are listed with why, and kept out.
 */

/** The suite's shape: a section's tests, and the DNS they are run against. */
type ZoneEntry = string | Record<string, unknown>;
interface SuiteTest {
  helo: string;
  host: string;
  mailfrom: string;
  result: string | string[];
}
interface Section {
  description: string;
  tests: Record<string, SuiteTest>;
  zonedata: Record<string, ZoneEntry[]>;
}
const sections = suite as unknown as Section[];

/**
 * Tests the expansion cannot judge by design, each with why: every other test of the suite must
 * read as the suite says.
 */
const outOfScope: Record<string, string> = {
  // A sending domain the service refuses before any lookup (targets/): not a host name.
  toolonglabel: 'a label of 64 characters: not a host name the service checks',
  emptylabel: 'an empty label: not a host name the service checks',
  'helo-not-fqdn': 'a single-label HELO name: not a host name the service checks',
  'helo-domain-literal': 'an address literal: not a host name the service checks',
  'domain-literal': 'an address literal: not a host name the service checks',
  // The fixture world drops every question to a name marked TIMEOUT, not only the other types'.
  spftimeout: 'a TXT answer beside a name whose other types time out',
  // ptr asks about the client's own address: not enumerable (docs/checks.md).
  'ptr-match-target': 'ptr: depends on the client',
  'ptr-match-implicit': 'ptr: depends on the client',
  'ptr-match-ip6': 'ptr: depends on the client',
  'ptr-case-change': 'ptr: depends on the client',
  'ptr-limit': 'ptr: depends on the client',
  // Addresses of documentation ranges (RFC 5737, RFC 3849) and outside 2000::/3 are not public:
  // the walk keeps only public addresses a lookup returns (docs/checks.md).
  'a-dual-cidr-ip6-match': 'a looked-up IPv6 address that is not public',
  'a-cidr6-0-ip6': 'a looked-up IPv6 address that is not public',
  'a-ip6-dualstack': 'a looked-up IPv6 address that is not public',
  'mx-cidr6-0-ip6': 'a looked-up IPv6 address that is not public',
  'redirect-implicit': 'a looked-up address in 192.0.2.0/24, not public',
  // An IPv4-mapped IPv6 client: the service never checks one (targets refuse it).
  'ip4-mapped-ip6': 'an IPv4-mapped IPv6 client',
  // Macros build the target from the client, sender or HELO: skipped, said so in `skipped`.
  'trailing-dot-domain': 'a macro',
  'macro-mania-in-domain': 'a macro',
  'p-macro-multiple': 'a macro',
  'hello-macro': 'a macro',
  'require-valid-helo': 'a macro',
  'macro-reverse-split-on-dash': 'a macro',
  'macro-multiple-delimiters': 'a macro',
  'bytes-bug': 'a macro',
  // The walk evaluates every term; the suite's client matches before the tenth lookup.
  'include-at-limit': 'a client that matches before the lookup limit',
};

/** A section's zone data as fixture zones, one per top-level domain. */
function zonesOf(section: Section): FixtureZone[] {
  const records: Record<string, FixtureRecords> = {};
  const timeouts: string[] = [];
  for (const [owner, entries] of Object.entries(section.zonedata)) {
    const name = owner.toLowerCase();
    const record: FixtureRecords = (records[name] ??= {});
    const spf: string[] = [];
    for (const entry of entries) {
      if (entry === 'TIMEOUT') timeouts.push(name);
      if (typeof entry !== 'object') continue;
      for (const [type, value] of Object.entries(entry)) {
        // A TXT record of several character-strings is joined (RFC 7208 §3.3).
        const text = Array.isArray(value) && type !== 'MX' ? value.join('') : String(value);
        if (text === 'NONE') continue;
        if (type === 'TXT') (record.TXT ??= []).push(text);
        else if (type === 'SPF') spf.push(text);
        else if (type === 'A') (record.A ??= []).push(text);
        else if (type === 'AAAA') (record.AAAA ??= []).push(text);
        else if (type === 'PTR') (record.PTR ??= []).push(text);
        else if (type === 'CNAME') record.CNAME = text.replace(/\.$/, '');
        else if (type === 'MX') {
          const [priority, exchange] = value as [number, string];
          (record.MX ??= []).push({ priority, exchange: exchange.replace(/\.$/, '') });
        }
      }
    }
    // The suite's drivers serve a type 99 SPF record as TXT where a name has no TXT (its note).
    if (record.TXT === undefined && spf.length > 0) record.TXT = spf;
  }
  const tlds = [...new Set(Object.keys(records).map((name) => name.split('.').pop()!))];
  return tlds.map((tld) => ({
    origin: tld,
    records: Object.fromEntries(
      Object.entries(records).filter(([name]) => name.split('.').pop() === tld),
    ),
    names: timeouts
      .filter((name) => name.split('.').pop() === tld)
      .map((name) => ({ pattern: name.replace(/\./g, '\\.'), behaviour: 'drop' as const })),
  }));
}

/** What the expansion says of `host`: none, permerror, temperror, pass, or not pass. */
async function readingOf(dns: MemoryDns, domain: string, host: string): Promise<string> {
  const resolver = withResolverStack(dns.transport(200), { maxInFlight: 50 });
  const expansion = await expandSpf(resolver, domain, { deadlineMs: 2000 });
  if (expansion.status === 'none') return 'none';
  if (expansion.status === 'multiple') return 'permerror';
  if (expansion.status === 'unavailable') return 'temperror';
  if (expansion.error) return expansion.error.kind;
  const ranges = [...expansion.ip4, ...expansion.ip6].flatMap((network) => {
    const range = parseAddressRange(
      network.includes('/') ? network : `${network}/${network.includes(':') ? 128 : 32}`,
    );
    return range ? [range] : [];
  });
  return inAddressRanges(host, ranges) ? 'pass' : 'not pass';
}

const worlds: MemoryDns[] = [];
afterAll(() => worlds.forEach((world) => world.close()));

describe.each(sections.map((section) => [section.description, section] as const))(
  'the RFC 7208 suite: %s',
  (_description, section) => {
    const dns = createMemoryDns({ zones: zonesOf(section), timeoutMs: 200 });
    worlds.push(dns);
    const tests = Object.entries(section.tests).filter(([name]) => !(name in outOfScope));
    it.each(tests.map(([name, test]) => [name, test] as const))(
      '%s reads as the suite says',
      async (_name, test) => {
        const sender = String(test.mailfrom ?? '');
        const domain = sender.includes('@') ? sender.split('@').pop()! : String(test.helo);
        const expected = [test.result].flat();
        const reading = await readingOf(dns, domain, String(test.host));
        if (reading === 'not pass') expect(expected).not.toContain('pass');
        else expect(expected).toContain(reading);
      },
    );
  },
);

it('keeps out of the table only tests the suite has', () => {
  const names = new Set(sections.flatMap((section) => Object.keys(section.tests)));
  expect(Object.keys(outOfScope).filter((name) => !names.has(name))).toEqual([]);
  // 203 tests, 26 out of scope: the expansion reads 177 as the suite does.
  expect(names.size - Object.keys(outOfScope).length).toBe(177);
});
