import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Resolver } from '../../../src/dns/index.js';
import { createDeadline } from '../../../src/reputation/lookups/deadline.js';
import { type ReverseDns, reverseDns, reverseName } from '../../../src/reputation/checks/rdns.js';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';

const zones: FixtureZone[] = [
  {
    origin: '2.0.192.in-addr.arpa',
    records: {
      '1.2.0.192.in-addr.arpa': { PTR: ['mail.example.net'] },
      '2.2.0.192.in-addr.arpa': { PTR: ['liar.example.net'] },
      '3.2.0.192.in-addr.arpa': { PTR: ['gone.example.net'] },
      '4.2.0.192.in-addr.arpa': { PTR: ['first.example.net', 'second.example.net'] },
      '5.2.0.192.in-addr.arpa': { PTR: ['MX.Example.NET'] },
      '6.2.0.192.in-addr.arpa': { PTR: ['mail.broken.net'] },
      // A reverse zone anyone controls can name hosts of the service's own network.
      '10.2.0.192.in-addr.arpa': { PTR: ['metadata.google.internal', 'db.corp.local'] },
      '11.2.0.192.in-addr.arpa': {
        PTR: Array.from({ length: 40 }, (_, i) => `host${i}.example.net`),
      },
      '7.2.0.192.in-addr.arpa': { PTR: ['alias.example.net'] },
      '12.2.0.192.in-addr.arpa': { PTR: ['<script>.example.net'] },
      // 8: no PTR at all (NXDOMAIN); 9: the name exists without a PTR (NODATA).
      '9.2.0.192.in-addr.arpa': { TXT: ['no ptr here'] },
    },
  },
  {
    origin: 'example.net',
    records: {
      'mail.example.net': { A: ['192.0.2.1'] },
      'liar.example.net': { A: ['192.0.2.200'] },
      'first.example.net': { A: ['192.0.2.201'] },
      'second.example.net': { A: ['192.0.2.4'] },
      'mx.example.net': { A: ['192.0.2.5', '192.0.2.50'] },
      'alias.example.net': { CNAME: 'mail7.example.net' },
      'mail7.example.net': { A: ['192.0.2.7'] },
      // Were it asked, this would confirm the address.
      '<script>.example.net': { A: ['192.0.2.12'] },
    },
  },
  { origin: 'broken.net', behaviour: 'servfail' },
  // Were they asked, these would confirm the address.
  { origin: 'internal', records: { 'metadata.google.internal': { A: ['192.0.2.10'] } } },
  { origin: 'local', records: { 'db.corp.local': { A: ['192.0.2.10'] } } },
  { origin: '100.51.198.in-addr.arpa', behaviour: 'servfail' },
  { origin: '113.0.203.in-addr.arpa', behaviour: 'drop' },
];

let dns: MemoryDns;
let resolver: Resolver;

beforeAll(async () => {
  dns = memoryWorld(zones);
  resolver = memoryResolver(dns, 1000);
});

afterAll(() => dns.close());

async function rdnsOf(address: string, deadlineMs = 2000, on = resolver): Promise<ReverseDns> {
  const deadline = createDeadline(deadlineMs);
  try {
    return await reverseDns(on, address, deadline);
  } finally {
    deadline.clear();
  }
}

describe('reverseName', () => {
  it.each([
    ['192.0.2.1', '1.2.0.192.in-addr.arpa'],
    // RFC 3596 §2.5's own example address.
    [
      '4321:0:1:2:3:4:567:89ab',
      'b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.0.0.0.0.1.2.3.4.ip6.arpa',
    ],
    [
      '2a00:1450:4001:80b::200e',
      'e.0.0.2.0.0.0.0.0.0.0.0.0.0.0.0.b.0.8.0.1.0.0.4.0.5.4.1.0.0.a.2.ip6.arpa',
    ],
  ])('looks the PTR of %s up at %s', (address, name) => {
    expect(reverseName(address)).toBe(name);
  });
});

describe('reverseDns', () => {
  it('passes FCrDNS when the PTR name resolves back to the address', async () => {
    expect(await rdnsOf('192.0.2.1')).toEqual({
      ptr: 'mail.example.net',
      names: ['mail.example.net'],
      fcrdns: 'pass',
      confirmed: ['mail.example.net'],
    });
  });

  it('fails FCrDNS when the PTR name resolves to other addresses', async () => {
    expect(await rdnsOf('192.0.2.2')).toEqual({
      ptr: 'liar.example.net',
      names: ['liar.example.net'],
      fcrdns: 'fail',
      confirmed: [],
    });
  });

  it('fails FCrDNS when the PTR name does not exist', async () => {
    expect(await rdnsOf('192.0.2.3')).toMatchObject({ ptr: 'gone.example.net', fcrdns: 'fail' });
  });

  it('passes when any PTR name confirms, with ptr the first PTR name', async () => {
    expect(await rdnsOf('192.0.2.4')).toEqual({
      ptr: 'first.example.net',
      names: ['first.example.net', 'second.example.net'],
      fcrdns: 'pass',
      confirmed: ['second.example.net'],
    });
  });

  it('compares names case-insensitively and finds the address among several', async () => {
    expect(await rdnsOf('192.0.2.5')).toMatchObject({ ptr: 'mx.example.net', fcrdns: 'pass' });
  });

  it('follows a CNAME on the forward lookup', async () => {
    expect(await rdnsOf('192.0.2.7')).toMatchObject({ ptr: 'alias.example.net', fcrdns: 'pass' });
  });

  it('reports none with an empty ptr when the address has no PTR (NXDOMAIN)', async () => {
    expect(await rdnsOf('192.0.2.8')).toEqual({
      ptr: '',
      names: [],
      fcrdns: 'none',
      confirmed: [],
    });
  });

  it('reports none when the reverse name exists without a PTR (NODATA)', async () => {
    expect(await rdnsOf('192.0.2.9')).toMatchObject({ ptr: '', fcrdns: 'none' });
  });

  it('reports an error, not none, when the PTR lookup fails', async () => {
    expect(await rdnsOf('198.51.100.1')).toEqual({
      ptr: '',
      names: [],
      fcrdns: 'error',
      confirmed: [],
      error: 'PTR lookup servfail',
    });
  });

  it('reports an error, not fail, when the forward lookup fails', async () => {
    expect(await rdnsOf('192.0.2.6')).toEqual({
      ptr: 'mail.broken.net',
      names: ['mail.broken.net'],
      fcrdns: 'error',
      confirmed: [],
      error: 'forward lookup gave no usable answer',
    });
  });

  it('lists the first 32 of an address’s 40 PTR names, and counts them all', async () => {
    const result = await rdnsOf('192.0.2.11');
    expect(result.names).toHaveLength(32);
    expect(result).toMatchObject({ ptr: 'host0.example.net', names_total: 40 });
  });

  it('never looks up a PTR name under a special-use suffix, so it never confirms', async () => {
    const before = dns.queries.length;
    expect(await rdnsOf('192.0.2.10')).toEqual({
      ptr: 'metadata.google.internal',
      names: ['metadata.google.internal', 'db.corp.local'],
      fcrdns: 'fail',
      confirmed: [],
    });
    expect(dns.queries.slice(before)).toEqual([{ name: '10.2.0.192.in-addr.arpa', type: 'PTR' }]);
  });

  it('never looks up or confirms a PTR name that is not a host name', async () => {
    const before = dns.queries.length;
    expect(await rdnsOf('192.0.2.12')).toEqual({
      ptr: '<script>.example.net',
      names: ['<script>.example.net'],
      fcrdns: 'fail',
      confirmed: [],
    });
    expect(dns.queries.slice(before)).toEqual([{ name: '12.2.0.192.in-addr.arpa', type: 'PTR' }]);
  });

  it('reports an error within the deadline when the PTR never comes', async () => {
    const start = performance.now();
    const rdns = await rdnsOf('203.0.113.1', 300);
    expect(performance.now() - start).toBeLessThan(300 + 200);
    expect(rdns).toEqual({
      ptr: '',
      names: [],
      fcrdns: 'error',
      confirmed: [],
      error: 'no PTR answer in time',
    });
  });

  it('asks the PTR under in-addr.arpa with reversed octets, then the A of the name', async () => {
    const fresh = memoryResolver(dns, 1000);
    const before = dns.queries.length;
    await rdnsOf('192.0.2.1', 2000, fresh);
    expect(dns.queries.slice(before)).toEqual([
      { name: '1.2.0.192.in-addr.arpa', type: 'PTR' },
      { name: 'mail.example.net', type: 'A' },
    ]);
  });
});
