import { describe, expect, it } from 'vitest';
import type { Resolver } from '../../src/dns/resolver.js';
import type { FixtureZone } from '../../fixtures/dns-server.js';

/**
 * What every DNS transport must answer alike (docs/edge.md: the DoH transport has the UDP
 * transport's outcomes): one fixture world and one suite, run against each transport by its own
 * test file, which adds what is particular to it (timeouts, servers, the wire): UDP
 * (test/node/dns/dgram-transport.test.ts), DoH through `fetch` (test/dns/doh-transport.test.ts)
 * and over HTTP/2 sessions (test/node/dns/doh-session.test.ts).
 */

/** Characters of two, three and four UTF-8 octets (RFC 7208 §3: SPF records may hold them). */
export const utf8Text = 'v=spf1 include:_spf.пример.рф ~all; owner=Zoë 🙂';

export const longText = `v=spf1 ${Array.from({ length: 30 }, (_, i) => `ip4:198.51.100.${i}`).join(' ')} -all`;

export const transportWorld: FixtureZone[] = [
  {
    origin: 'example.org',
    ttl: 120,
    records: {
      'mail.example.org': {
        A: ['192.0.2.10', '192.0.2.11'],
        AAAA: ['2001:db8::10'],
        TXT: ['v=spf1 -all', longText],
        MX: [
          { exchange: 'mx1.example.org', priority: 10 },
          { exchange: 'mx2.example.org', priority: 20 },
        ],
      },
      'example.org': { NS: ['ns1.example.org', 'ns2.example.org'] },
      'www.example.org': { CNAME: 'mail.example.org' },
      'utf8.example.org': { TXT: [utf8Text] },
      'away.example.org': { CNAME: 'short.hosting.test' },
      'loop1.example.org': { CNAME: 'loop2.example.org' },
      'loop2.example.org': { CNAME: 'loop1.example.org' },
    },
  },
  { origin: 'hosting.test', ttl: 600, records: { 'short.hosting.test': { A: ['203.0.113.5'] } } },
  {
    origin: '2.0.192.in-addr.arpa',
    records: { '10.2.0.192.in-addr.arpa': { PTR: ['mail.example.org'] } },
  },
  { origin: 'servfail.test', behaviour: 'servfail' },
  { origin: 'refused.test', behaviour: 'refused' },
  { origin: 'dropped.test', behaviour: 'drop' },
  { origin: 'slow.test', latencyMs: 2000, records: { 'a.slow.test': { A: ['192.0.2.1'] } } },
];

/** The outcomes and records every transport gives for `transportWorld`. */
export function describeTransportOutcomes(name: string, transport: () => Resolver): void {
  describe(`${name}, outcomes`, () => {
    it('reports an A answer with its records and TTL', async () => {
      expect(await transport().query('mail.example.org', 'A')).toEqual({
        status: 'answer',
        records: ['192.0.2.10', '192.0.2.11'],
        ttl: 120,
      });
    });

    it('reports an AAAA answer with its TTL', async () => {
      expect(await transport().query('mail.example.org', 'AAAA')).toEqual({
        status: 'answer',
        records: ['2001:db8::10'],
        ttl: 120,
      });
    });

    it('reports a name that does not exist as nxdomain', async () => {
      expect(await transport().query('nowhere.example.org', 'A')).toEqual({ status: 'nxdomain' });
    });

    it('reports a name without records of the type as nodata', async () => {
      expect(await transport().query('example.org', 'A')).toEqual({ status: 'nodata' });
      expect(await transport().query('mail.example.org', 'PTR')).toEqual({ status: 'nodata' });
    });

    it('reports SERVFAIL as servfail and REFUSED as refused', async () => {
      expect(await transport().query('a.servfail.test', 'A')).toEqual({ status: 'servfail' });
      expect(await transport().query('a.refused.test', 'TXT')).toEqual({ status: 'refused' });
    });

    it('joins the character-strings of each TXT record (RFC 7208 §3.3)', async () => {
      expect(await transport().query('mail.example.org', 'TXT')).toMatchObject({
        status: 'answer',
        records: ['v=spf1 -all', longText],
      });
      expect(longText.length).toBeGreaterThan(255);
    });

    it('decodes MX, NS, PTR and CNAME records', async () => {
      expect(await transport().query('mail.example.org', 'MX')).toMatchObject({
        status: 'answer',
        records: [
          { exchange: 'mx1.example.org', priority: 10 },
          { exchange: 'mx2.example.org', priority: 20 },
        ],
      });
      expect(await transport().query('example.org', 'NS')).toMatchObject({
        status: 'answer',
        records: ['ns1.example.org', 'ns2.example.org'],
      });
      expect(await transport().query('10.2.0.192.in-addr.arpa', 'PTR')).toMatchObject({
        status: 'answer',
        records: ['mail.example.org'],
      });
      expect(await transport().query('www.example.org', 'CNAME')).toMatchObject({
        status: 'answer',
        records: ['mail.example.org'],
      });
    });

    it('follows a CNAME to the addresses of its target', async () => {
      expect(await transport().query('www.example.org', 'A')).toMatchObject({
        status: 'answer',
        records: ['192.0.2.10', '192.0.2.11'],
      });
    });

    it('reports the least TTL of a CNAME chain', async () => {
      // The alias lives 120 s, its target's address 600 s.
      expect(await transport().query('away.example.org', 'A')).toEqual({
        status: 'answer',
        records: ['203.0.113.5'],
        ttl: 120,
      });
    });

    it('reports a CNAME loop as the fixture’s SERVFAIL, without chasing it forever', async () => {
      expect(await transport().query('loop1.example.org', 'A')).toEqual({ status: 'servfail' });
    });

    it('names the question as asked, whatever its case, and with or without the root dot', async () => {
      expect(await transport().query('MAIL.Example.ORG.', 'A')).toMatchObject({
        records: ['192.0.2.10', '192.0.2.11'],
      });
    });

    it('reads a TXT record as UTF-8', async () => {
      expect(await transport().query('utf8.example.org', 'TXT')).toMatchObject({
        status: 'answer',
        records: [utf8Text],
      });
    });

    it('answers a name the wire cannot carry as servfail', async () => {
      expect(await transport().query(`${'x'.repeat(64)}.example.org`, 'A')).toEqual({
        status: 'servfail',
      });
    });
  });
}
