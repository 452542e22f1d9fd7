import { describe, expect, it } from 'vitest';
import {
  addressPrefix,
  inAddressRanges,
  parseAddress,
  parseAddressRange,
  parseAddressRanges,
} from '../../src/lib/address-ranges.js';

/**
 * Addresses as peers and proxies write them and the CIDR ranges they are compared with: the rules
 * TRUST_PROXY, METRICS_ALLOW, WEBHOOK_ALLOW_NETWORKS and the per-network counts share.
 */

describe('an address as a peer or proxy writes it', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['203.0.113.9:5678', '203.0.113.9'],
    ['[2001:db8::1]:1234', '2001:db8::1'],
    ['2001:db8::1', '2001:db8::1'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    [' 2001:DB8::1 ', '2001:db8::1'],
  ])('reads %s as %s', (text, address) => {
    expect(parseAddress(text)?.toString()).toBe(address);
  });

  it.each(['01.2.3.4', '1.2.3', '0x7f.0.0.1', 'example.org', '', '::ffff:1.2.3'])(
    'reads %j as no address',
    (text) => {
      expect(parseAddress(text)).toBeUndefined();
    },
  );
});

describe('a range', () => {
  it.each([
    ['10.0.0.0/8', '10.0.0.0', 8],
    ['fc00::/7', 'fc00::', 7],
    ['192.0.2.1', '192.0.2.1', 32],
    ['2001:db8::1', '2001:db8::1', 128],
    ['::ffff:10.0.0.0/104', '10.0.0.0', 8],
  ])('reads %s as %s/%i', (text, network, prefix) => {
    const range = parseAddressRange(text);
    expect(range?.[0].toString()).toBe(network);
    expect(range?.[1]).toBe(prefix);
  });

  it.each(['10.0.0.0/33', '10/8', 'fc00::/129', 'localhost', ''])('refuses %j', (text) => {
    expect(parseAddressRange(text)).toBeUndefined();
  });

  it('reads a list, naming the entries that are no range', () => {
    const { ranges, invalid } = parseAddressRanges(['10.0.0.0/8', 'nope', 'fd00::/8', '1.2.3']);
    expect(ranges).toHaveLength(2);
    expect(invalid).toEqual(['nope', '1.2.3']);
  });

  it.each([
    ['10.1.2.3', true],
    ['10.1.2.3:80', true],
    ['::ffff:10.1.2.3', true],
    ['11.0.0.1', false],
    ['fd12::1', true],
    ['fe80::1', false],
    ['not an address', false],
  ])('holds %s: %s', (address, held) => {
    const { ranges } = parseAddressRanges(['10.0.0.0/8', 'fd00::/8']);
    expect(inAddressRanges(address, ranges)).toBe(held);
  });

  it('never matches across families: ::/0 holds no IPv4 address, 0.0.0.0/0 no IPv6 one', () => {
    expect(inAddressRanges('192.0.2.1', parseAddressRanges(['::/0']).ranges)).toBe(false);
    expect(inAddressRanges('2001:db8::1', parseAddressRanges(['0.0.0.0/0']).ranges)).toBe(false);
  });
});

describe("an address's network of N bits", () => {
  it.each([
    ['203.0.113.9', 24, '203.0.113.0/24'],
    ['203.0.113.9', 32, '203.0.113.9/32'],
    ['203.0.113.9', 0, '0.0.0.0/0'],
    ['203.0.113.9', 20, '203.0.112.0/20'],
    ['::ffff:203.0.113.9', 24, '203.0.113.0/24'],
    ['2001:db8:1:2:3:4:5:6', 64, '2001:db8:1:2::/64'],
    ['2001:db8:1:2:3:4:5:6', 48, '2001:db8:1::/48'],
    ['2001:db8:1:2:3:4:5:6', 52, '2001:db8:1::/52'],
    ['2001:db8:1:f2ff::1', 52, '2001:db8:1:f000::/52'],
    ['2001:db8::1', 128, '2001:db8::1/128'],
  ])('%s in /%i is %s', (address, prefix, network) => {
    expect(addressPrefix(address, prefix)).toBe(network);
  });

  it.each([
    ['203.0.113.9', 33],
    ['2001:db8::1', 129],
    ['203.0.113.9', -1],
    ['203.0.113.9', 2.5],
    ['example.org', 24],
  ])('has no network for %s /%i', (address, prefix) => {
    expect(addressPrefix(address, prefix)).toBeUndefined();
  });
});
