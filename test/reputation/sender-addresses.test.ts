import { describe, expect, it } from 'vitest';
import { senderAddresses } from '../../src/reputation/sender-addresses.js';

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
    ).toEqual({ ips: ['185.9.0.1'], ipsTotal: 1, ranges: [], rangesTotal: 0 });
  });

  it('keeps a range that is partly public, such as one reaching past a private block', () => {
    expect(senderAddresses(['10.0.0.0/7']).ranges).toEqual([
      { network: '10.0.0.0/7', size: 2 ** 25 },
    ]);
  });

  it('lists the first 1,024 of 48,000 addresses and counts them all, without writing them out', () => {
    // 3,000 ip4:/28 terms, the record of the finding in issue 13.
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
