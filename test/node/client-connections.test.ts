import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../src/http/index.js';
import {
  connectionClient,
  countClientConnections,
  uncappedPeers,
} from '../../src/node/client-connections.js';

describe('connectionClient', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:cb00:7109', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['::1', '::/64'],
  ])('counts a connection from %s against %s', (address, client) => {
    expect(connectionClient(address)).toBe(client);
  });

  it('counts every address of one IPv6 /64 as one client, and the next /64 as another', () => {
    expect(connectionClient('2001:db8:a:b::1')).toBe(connectionClient('2001:db8:a:b:c:d:e:f'));
    expect(connectionClient('2001:db8:a:b::1')).not.toBe(connectionClient('2001:db8:a:c::1'));
  });

  it('counts a dual-stack socket’s IPv4-mapped address as the IPv4 client itself', () => {
    expect(connectionClient('::ffff:192.0.2.1')).toBe(connectionClient('192.0.2.1'));
  });
});

describe('countClientConnections', () => {
  it('admits a client up to its share, then refuses it, while other clients are admitted', () => {
    const clients = countClientConnections(2);
    expect([clients.open('a'), clients.open('a'), clients.open('a')]).toEqual([true, true, false]);
    expect(clients.open('b')).toBe(true);
  });

  it('admits a client again once one of its connections closes', () => {
    const clients = countClientConnections(1);
    expect(clients.open('a')).toBe(true);
    expect(clients.open('a')).toBe(false);
    clients.close('a');
    expect(clients.open('a')).toBe(true);
  });
});

describe('uncappedPeers', () => {
  it('caps every peer when no proxy is trusted', () => {
    const uncapped = uncappedPeers(parseTrustProxy('none'));
    expect(['127.0.0.1', '10.0.0.1', '::1'].map(uncapped)).toEqual([false, false, false]);
  });

  it('leaves the trusted proxy CIDRs uncapped and caps every other peer', () => {
    const uncapped = uncappedPeers(parseTrustProxy('10.0.0.0/8,::1'));
    expect(['10.1.2.3', '::ffff:10.1.2.3', '::1'].map(uncapped)).toEqual([true, true, true]);
    expect(['192.0.2.1', '127.0.0.1', '2001:db8::1'].map(uncapped)).toEqual([false, false, false]);
  });

  it.each(['1', 'cloudflare'])(
    'leaves every peer uncapped with TRUST_PROXY=%s, which believes every peer a proxy',
    (trust) => {
      const uncapped = uncappedPeers(parseTrustProxy(trust));
      expect(['127.0.0.1', '192.0.2.1', '2001:db8::1'].map(uncapped)).toEqual([true, true, true]);
    },
  );
});
