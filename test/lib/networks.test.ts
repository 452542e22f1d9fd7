import { describe, expect, it } from 'vitest';
import { ipv4ToNumber, isPublicNetwork } from '../../src/lib/ipv4.js';
import { isPublicIpv6Network } from '../../src/lib/ipv6.js';

/** RFC 6890 for networks as SPF terms name them: is any address of the network public? */

describe('isPublicNetwork', () => {
  it.each([
    ['8.8.8.0', 24, true],
    ['185.9.0.1', 32, true],
    ['0.0.0.0', 0, true],
    // Reaches past 10.0.0.0/8 into public space.
    ['10.0.0.0', 7, true],
    ['10.1.0.0', 16, false],
    ['127.0.0.1', 32, false],
    ['169.254.169.254', 32, false],
    ['100.64.0.0', 10, false],
    ['192.0.2.16', 28, false],
    ['198.18.0.0', 15, false],
    // Multicast and reserved touch: together they hold no public address.
    ['224.0.0.0', 3, false],
    ['255.255.255.255', 32, false],
  ])('%s/%i: %s', (address, prefix, expected) => {
    expect(isPublicNetwork(ipv4ToNumber(address), prefix)).toBe(expected);
  });
});

describe('isPublicIpv6Network', () => {
  it.each([
    ['2a00:1450:4000::/36', true],
    ['2a00:1450:4010::1', true],
    ['::/0', true],
    ['::1', false],
    ['fe80::/64', false],
    ['fc00::/7', false],
    ['2001:db8::/48', false],
    ['::ffff:0:0/96', false],
    ['64:ff9b::/96', false],
    ['2002::/16', false],
    ['2001::/32', false],
    ['3fff::/20', false],
    ['4000::/3', false],
    // IETF protocol assignments are not public, but AMT inside them is.
    ['2001::/23', true],
    ['2001:3::/32', true],
    ['2000::/3', true],
  ])('%s: %s', (network, expected) => {
    expect(isPublicIpv6Network(network)).toBe(expected);
  });
});
