import { describe, expect, it } from 'vitest';
import { senderAddresses } from '../../../src/reputation/checks/sender-addresses.js';

describe('senderAddresses', () => {
  it.each([
    { entries: [], ips: [], ranges: [] },
    {
      entries: ['192.0.3.100', '192.0.3.20', '8.8.8.8'],
      ips: ['8.8.8.8', '192.0.3.20', '192.0.3.100'],
      ranges: [],
    },
    {
      entries: ['192.0.3.7', '192.0.3.7', '192.0.3.6/31'],
      ips: ['192.0.3.6', '192.0.3.7'],
      ranges: [],
    },
    {
      entries: ['198.51.101.0/27', '198.51.101.0', '198.51.98.255', '198.51.101.0/24'],
      ips: ['198.51.98.255', '198.51.101.0'],
      ranges: [
        { network: '198.51.101.0/24', size: 256 },
        { network: '198.51.101.0/27', size: 32 },
      ],
    },
    {
      entries: ['192.0.3.77/30'],
      ips: ['192.0.3.76', '192.0.3.77', '192.0.3.78', '192.0.3.79'],
      ranges: [],
    },
    {
      entries: ['0.0.0.0/0', '192.0.3.1'],
      ips: ['192.0.3.1'],
      ranges: [{ network: '0.0.0.0/0', size: 4294967296 }],
    },
  ])(
    'lists $entries as the single addresses $ips and the ranges $ranges',
    ({ entries, ips, ranges }) => {
      expect(senderAddresses(entries)).toEqual({
        ips,
        ipsTotal: ips.length,
        ranges,
        rangesTotal: ranges.length,
        ip6Ranges: [],
        ip6RangesTotal: 0,
      });
    },
  );

  it('lists no address or range that is not public (RFC 6890)', () => {
    expect(
      senderAddresses([
        '10.20.30.40',
        '127.0.0.1',
        '169.254.169.254',
        '100.64.0.1',
        '192.0.2.1',
        '10.1.0.0/16',
        '192.168.0.0/24',
        '224.0.0.0/3',
        '185.9.0.1',
      ]),
    ).toEqual({
      ips: ['185.9.0.1'],
      ipsTotal: 1,
      ranges: [],
      rangesTotal: 0,
      ip6Ranges: [],
      ip6RangesTotal: 0,
    });
  });

  it('lists IPv6 senders after IPv4 ones, in RFC 5952 form, networks up to a /124 written out', () => {
    expect(
      senderAddresses([
        '2a00:1450:4001:80b::200e',
        '192.0.3.20',
        '2a00:1450:4001:80b::200e',
        '2a01:4f8::10/126',
        '2001:0db8::1',
        '2a00:1450::/32',
        '2a03:2880::/48',
      ]),
    ).toEqual({
      ips: [
        '192.0.3.20',
        '2a00:1450:4001:80b::200e',
        '2a01:4f8::10',
        '2a01:4f8::11',
        '2a01:4f8::12',
        '2a01:4f8::13',
      ],
      ipsTotal: 6,
      ranges: [],
      rangesTotal: 0,
      ip6Ranges: ['2a00:1450::/32', '2a03:2880::/48'],
      ip6RangesTotal: 2,
    });
  });

  it('lists no IPv6 address or network that is not public, nor one that smuggles an IPv4 one', () => {
    expect(
      senderAddresses([
        '::1',
        'fe80::1',
        'fc00::/7',
        '::ffff:10.0.0.1',
        '64:ff9b::a00:1',
        '2002:a00:1::/48',
        '2001:db8::/32',
        '2a00:1450::1',
      ]),
    ).toMatchObject({ ips: ['2a00:1450::1'], ipsTotal: 1, ip6Ranges: [] });
  });

  it('keeps the 1,024 cap for both families together, IPv4 first', () => {
    const ipv4 = Array.from({ length: 1020 }, (_, i) => `185.20.${Math.floor(i / 256)}.${i % 256}`);
    const found = senderAddresses([...ipv4, '2a01:4f8::/124']);
    expect(found.ips).toHaveLength(1024);
    expect(found.ipsTotal).toBe(1036);
    expect(found.ips.slice(1019)).toEqual([
      '185.20.3.251',
      '2a01:4f8::',
      '2a01:4f8::1',
      '2a01:4f8::2',
      '2a01:4f8::3',
    ]);
  });

  it('keeps a range that is partly public, such as one reaching past a private block', () => {
    expect(senderAddresses(['10.0.0.0/7']).ranges).toEqual([
      { network: '10.0.0.0/7', size: 2 ** 25 },
    ]);
  });

  it('lists the first 1,024 of 48,000 addresses and counts them all, without writing them out', () => {
    // 3,000 ip4:/28 terms, the record of docs/checks.md#bounded-results.
    const terms = Array.from(
      { length: 3000 },
      (_, i) => `185.${10 + Math.floor(i / 16)}.${(i % 16) * 16}.0/28`,
    );
    const found = senderAddresses(terms);
    expect(found.ips).toHaveLength(1024);
    expect(found.ipsTotal).toBe(48_000);
    expect(found.ips[0]).toBe('185.10.0.0');
    expect(found.ips[1023]).toBe('185.13.240.15');
  });

  it('counts overlapping and adjacent networks once', () => {
    expect(
      senderAddresses(['185.9.0.0/28', '185.9.0.8/29', '185.9.0.16/28', '185.9.0.3']).ipsTotal,
    ).toBe(32);
  });

  it('lists the first 256 ranges and counts them all', () => {
    const found = senderAddresses(
      Array.from({ length: 300 }, (_, i) => `185.${i % 200}.${Math.floor(i / 200)}.0/24`),
    );
    expect(found.ranges).toHaveLength(256);
    expect(found.rangesTotal).toBe(300);
  });
});
