import { reversedNibbles } from '../src/lib/index.js';
import type { DnsblZone } from '../src/reputation/index.js';
import type { FixtureZone } from '../fixtures/dns-server.js';
import { dnsblWorld } from '../fixtures/dnsbl-world.js';

/**
 * The bundled demo DNS world: made-up listings on the default zone list, reverse DNS, a sending
 * domain and a pool. None of it says anything about the real owners of these addresses.
 */

export const demoAddresses = {
  clean: '192.0.3.10',
  listed: '192.0.3.20',
  dynamic: '192.0.3.30',
  /** The mail host's IPv6 address, with forward-confirmed reverse DNS under ip6.arpa. */
  ipv6: '2a0b:4e07:b3::25',
  /** An IPv6 address on the lists that cover IPv6. */
  ipv6Listed: '2a0b:4e07:b3::66',
  /**
   * On one list for a while and then not, over and over, while `npm run demo` runs
   * (scripts/demo-flapping.ts): what a watch's listed and delisted events are made of. Not listed
   * in `demoWorld` unless asked.
   */
  flapping: '192.0.3.40',
} as const;

/** The one listing that comes and goes: the flapping address on SpamCop (`127.0.0.2`, listed). */
export const demoFlapping = {
  address: demoAddresses.flapping,
  zone: 'bl.spamcop.net',
  codes: ['127.0.0.2'],
  /** Its forward-confirmed reverse DNS: out of its listings, a sound sender. */
  host: 'bulk.demo-sender.com',
} as const;

export const demoNames = {
  host: 'mail.demo-sender.com',
  domain: 'demo-sender.com',
  listedDomain: 'spammy-demo.net',
  pool: 'pool.demo-sender.com',
} as const;

/**
 * The mail tool's demo domain: its MX hosts and MTA-STS policy host answer on loopback
 * (scripts/demo-mail.ts starts them; PROBE_ALLOW_NETWORKS lets the probes reach them).
 */
export const demoMail = {
  domain: 'demo-mail.net',
  mxTls: { host: 'mx1.demo-mail.net', address: '127.0.0.2' },
  mxPlain: { host: 'mx2.demo-mail.net', address: '127.0.0.3' },
  policyAddress: '127.0.0.4',
  policy:
    'version: STSv1\r\nmode: testing\r\nmx: mx1.demo-mail.net\r\nmx: mx2.demo-mail.net\r\nmax_age: 86400\r\n',
} as const;

/**
 * The zones of the demo world a caller may name (DNS_KNOWN_ZONES, set by `npm run demo`): the
 * sending domains, the mail domain and the reverse DNS's host. A name outside them has no answer
 * in this world, and the service says so instead of failing it as a DNS error.
 */
export const demoZones = [
  demoNames.domain,
  demoNames.listedDomain,
  demoMail.domain,
  'broadband.demo-isp.net',
] as const;

/** The demo pool's addresses: `pool.demo-sender.com` answers with 3 of them at a time. */
export const demoPoolAddresses = Array.from({ length: 12 }, (_, i) => `192.0.3.${100 + i}`);
/** The demo pool's one listed address (on SpamCop): what a pool check of the demo finds listed. */
export const demoPoolListed = demoPoolAddresses[3]!;

/** The demo world; `flappingListed`: with the flapping address on its list (default: not). */
export function demoWorld(
  zones: DnsblZone[],
  { flappingListed = false }: { flappingListed?: boolean } = {},
): FixtureZone[] {
  return [
    ...dnsblWorld(zones, {
      ...(flappingListed
        ? { [demoFlapping.address]: { [demoFlapping.zone]: [...demoFlapping.codes] } }
        : {}),
      [demoAddresses.listed]: {
        'zen.spamhaus.org': ['127.0.0.2', '127.0.0.4'],
        'bl.spamcop.net': ['127.0.0.2'],
        'psbl.surriel.com': ['127.0.0.2'],
        'rep.mailspike.net': ['127.0.0.11'],
      },
      [demoAddresses.dynamic]: { 'zen.spamhaus.org': ['127.0.0.10'] },
      [demoAddresses.clean]: {
        'list.dnswl.org': ['127.0.10.2'],
        'score.senderscore.com': ['127.0.4.96'],
      },
      [demoPoolListed]: { 'bl.spamcop.net': ['127.0.0.2'] },
      [demoAddresses.ipv6Listed]: {
        'zen.spamhaus.org': ['127.0.0.3'],
        'bl.spameatingmonkey.net': ['127.0.0.2'],
      },
      [demoNames.listedDomain]: {
        'dbl.spamhaus.org': ['127.0.1.2'],
        'multi.uribl.com': ['127.0.0.2'],
      },
    }),
    {
      origin: '3.0.192.in-addr.arpa',
      records: {
        '10.3.0.192.in-addr.arpa': { PTR: [demoNames.host] },
        '20.3.0.192.in-addr.arpa': { PTR: ['host-20.broadband.demo-isp.net'] },
        '40.3.0.192.in-addr.arpa': { PTR: [demoFlapping.host] },
        ...Object.fromEntries(
          demoPoolAddresses.map((address) => [
            `${address.split('.')[3]}.3.0.192.in-addr.arpa`,
            { PTR: [`out-${address.split('.')[3]}.${demoNames.pool}`] },
          ]),
        ),
      },
    },
    {
      origin: 'ip6.arpa',
      records: {
        [`${reversedNibbles(demoAddresses.ipv6)}.ip6.arpa`]: { PTR: [demoNames.host] },
      },
    },
    {
      origin: demoNames.domain,
      records: {
        [demoNames.domain]: {
          A: ['192.0.3.10'],
          MX: [{ exchange: demoNames.host, priority: 10 }],
          TXT: ['v=spf1 mx include:_spf.demo-sender.com ip4:192.0.3.64/28 ip4:192.0.4.0/24 ~all'],
          NS: ['ns1.demo-sender.com'],
        },
        '_spf.demo-sender.com': { TXT: ['v=spf1 ip4:192.0.3.20 a:relay.demo-sender.com -all'] },
        'relay.demo-sender.com': { A: ['192.0.3.30'] },
        [demoFlapping.host]: { A: [demoFlapping.address] },
        '_dmarc.demo-sender.com': {
          TXT: ['v=DMARC1; p=quarantine; rua=mailto:dmarc@demo-sender.com'],
        },
        [demoNames.host]: { A: [demoAddresses.clean], AAAA: [demoAddresses.ipv6] },
        'ns1.demo-sender.com': { A: ['127.0.0.1'] },
        [demoNames.pool]: { A: demoPoolAddresses, pickA: 3 },
      },
    },
    {
      origin: demoNames.listedDomain,
      records: {
        // Its MX is the demo's server without STARTTLS (scripts/demo-mail.ts): a mail check of
        // it probes that, and never an address outside.
        [demoNames.listedDomain]: {
          A: ['192.0.3.20'],
          TXT: ['v=spf1 a -all'],
          MX: [{ exchange: `mx.${demoNames.listedDomain}`, priority: 10 }],
        },
        [`mx.${demoNames.listedDomain}`]: { A: [demoMail.mxPlain.address] },
      },
    },
    {
      origin: demoMail.domain,
      records: {
        [demoMail.domain]: {
          TXT: ['v=spf1 ip4:192.0.3.10 -all'],
          MX: [
            { exchange: demoMail.mxTls.host, priority: 10 },
            { exchange: demoMail.mxPlain.host, priority: 20 },
          ],
        },
        [demoMail.mxTls.host]: { A: [demoMail.mxTls.address] },
        [demoMail.mxPlain.host]: { A: [demoMail.mxPlain.address] },
        [`_dmarc.${demoMail.domain}`]: {
          TXT: [`v=DMARC1; p=quarantine; rua=mailto:dmarc@${demoMail.domain}`],
        },
        // RFC 8463 §A.2's Ed25519 key, at Google Workspace's selector.
        [`google._domainkey.${demoMail.domain}`]: {
          TXT: ['v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='],
        },
        [`_mta-sts.${demoMail.domain}`]: { TXT: ['v=STSv1; id=20261127'] },
        [`mta-sts.${demoMail.domain}`]: { A: [demoMail.policyAddress] },
        [`_smtp._tls.${demoMail.domain}`]: {
          TXT: [`v=TLSRPTv1; rua=mailto:tls@${demoMail.domain}`],
        },
      },
    },
    {
      origin: 'broadband.demo-isp.net',
      records: { 'host-20.broadband.demo-isp.net': { A: ['192.0.3.21'] } },
    },
  ];
}
