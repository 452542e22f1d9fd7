import { describe, expect, it } from 'vitest';
import {
  callerAddress,
  parseTrustProxy,
  quotaSubject,
  type TrustProxy,
} from '../../src/http/caller.js';

/** A header lookup over a plain record, case-insensitive like Hono's `c.req.header`. */
function headers(values: Record<string, string>): (name: string) => string | undefined {
  const lowered = new Map(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => lowered.get(name.toLowerCase());
}

type Case = [description: string, peer: string, headers: Record<string, string>, caller: string];

function runCases(trust: TrustProxy, cases: Case[]): void {
  it.each(cases)('%s', (_, peer, values, caller) => {
    expect(callerAddress(peer, headers(values), trust)).toBe(caller);
  });
}

describe('callerAddress without a trusted proxy', () => {
  runCases({ mode: 'none' }, [
    ['uses the socket peer', '198.51.100.1', {}, '198.51.100.1'],
    [
      'ignores a spoofed X-Forwarded-For',
      '198.51.100.1',
      { 'X-Forwarded-For': '203.0.113.9' },
      '198.51.100.1',
    ],
    [
      'ignores a spoofed CF-Connecting-IP',
      '198.51.100.1',
      { 'CF-Connecting-IP': '203.0.113.9' },
      '198.51.100.1',
    ],
    ['reads an IPv4-mapped peer as IPv4', '::ffff:198.51.100.1', {}, '198.51.100.1'],
    ['writes an IPv6 peer in its compact form', '2001:0db8:0:0:0:0:0:1', {}, '2001:db8::1'],
    ['returns a peer that is not an address as given', '', {}, ''],
  ]);
});

describe('callerAddress behind Cloudflare', () => {
  runCases({ mode: 'cloudflare' }, [
    ['uses CF-Connecting-IP', '172.64.0.1', { 'CF-Connecting-IP': '203.0.113.9' }, '203.0.113.9'],
    [
      'uses an IPv6 CF-Connecting-IP',
      '172.64.0.1',
      { 'CF-Connecting-IP': '2001:db8::9' },
      '2001:db8::9',
    ],
    ['falls back to the peer without the header', '172.64.0.1', {}, '172.64.0.1'],
    [
      'falls back to the peer when the header is garbage',
      '172.64.0.1',
      { 'CF-Connecting-IP': 'not-an-ip' },
      '172.64.0.1',
    ],
    [
      'does not read X-Forwarded-For',
      '172.64.0.1',
      { 'X-Forwarded-For': '203.0.113.9' },
      '172.64.0.1',
    ],
  ]);
});

describe('callerAddress behind one proxy (hops: 1)', () => {
  runCases({ mode: 'hops', hops: 1 }, [
    [
      'uses the entry the proxy appended',
      '10.0.0.2',
      { 'X-Forwarded-For': '203.0.113.9' },
      '203.0.113.9',
    ],
    [
      'ignores what the client wrote before it',
      '10.0.0.2',
      { 'X-Forwarded-For': '1.1.1.1, 203.0.113.9' },
      '203.0.113.9',
    ],
    ['uses the peer without the header', '10.0.0.2', {}, '10.0.0.2'],
    ['uses the peer when the header is empty', '10.0.0.2', { 'X-Forwarded-For': '' }, '10.0.0.2'],
    [
      'uses the peer when the entry is garbage',
      '10.0.0.2',
      { 'X-Forwarded-For': 'unknown' },
      '10.0.0.2',
    ],
    [
      'drops the port of an IPv4 entry',
      '10.0.0.2',
      { 'X-Forwarded-For': '203.0.113.9:5678' },
      '203.0.113.9',
    ],
    [
      'drops the brackets and port of an IPv6 entry',
      '10.0.0.2',
      { 'X-Forwarded-For': '[2001:db8::1]:1234' },
      '2001:db8::1',
    ],
    [
      'reads an IPv4-mapped entry as IPv4',
      '10.0.0.2',
      { 'X-Forwarded-For': '::ffff:203.0.113.9' },
      '203.0.113.9',
    ],
    [
      'refuses an octal-looking IPv4 entry',
      '10.0.0.2',
      { 'X-Forwarded-For': '0203.0.113.9' },
      '10.0.0.2',
    ],
  ]);
});

describe('callerAddress behind two proxies (hops: 2)', () => {
  runCases({ mode: 'hops', hops: 2 }, [
    [
      'uses the second entry from the right',
      '10.0.0.2',
      { 'X-Forwarded-For': '1.1.1.1, 203.0.113.9, 10.0.0.1' },
      '203.0.113.9',
    ],
    [
      'falls back to the left-most entry when there are fewer',
      '10.0.0.2',
      { 'X-Forwarded-For': '203.0.113.9' },
      '203.0.113.9',
    ],
    [
      'stops at the last address before a garbage entry',
      '10.0.0.2',
      { 'X-Forwarded-For': '203.0.113.9, bogus, 10.0.0.1' },
      '10.0.0.1',
    ],
  ]);
});

describe('callerAddress behind proxies in trusted ranges', () => {
  runCases(parseTrustProxy('10.0.0.0/8, 2001:db8:ffff::/48'), [
    [
      'steps over trusted proxies to the first untrusted address',
      '10.0.0.2',
      { 'X-Forwarded-For': '1.1.1.1, 203.0.113.9, 10.0.0.1' },
      '203.0.113.9',
    ],
    [
      'ignores the header from an untrusted peer',
      '198.51.100.1',
      { 'X-Forwarded-For': '203.0.113.9' },
      '198.51.100.1',
    ],
    [
      'matches an IPv4-mapped peer against IPv4 ranges',
      '::ffff:10.0.0.2',
      { 'X-Forwarded-For': '203.0.113.9' },
      '203.0.113.9',
    ],
    [
      'matches IPv6 proxies against IPv6 ranges',
      '2001:db8:ffff::1',
      { 'X-Forwarded-For': '2001:db8:1:2::99' },
      '2001:db8:1:2::99',
    ],
    [
      'uses the left-most entry when every hop is trusted',
      '10.0.0.2',
      { 'X-Forwarded-For': '10.9.9.9, 10.0.0.1' },
      '10.9.9.9',
    ],
    [
      'stops at the last trusted address before a garbage entry',
      '10.0.0.2',
      { 'X-Forwarded-For': '203.0.113.9, <script>' },
      '10.0.0.2',
    ],
    ['uses the peer without the header', '10.0.0.2', {}, '10.0.0.2'],
  ]);
});

describe('quotaSubject', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
  ])('counts %s as %s', (address, subject) => {
    expect(quotaSubject(address)).toBe(subject);
  });

  it('puts two addresses of one /64 under one subject', () => {
    expect(quotaSubject('2001:db8:a:b::1')).toBe(quotaSubject('2001:db8:a:b:c:d:e:f'));
  });
});

describe('parseTrustProxy', () => {
  it.each([
    ['none', { mode: 'none' }],
    ['cloudflare', { mode: 'cloudflare' }],
    [' Cloudflare ', { mode: 'cloudflare' }],
    ['2', { mode: 'hops', hops: 2 }],
    ['0', { mode: 'hops', hops: 0 }],
  ])('reads %j', (value, trust) => {
    expect(parseTrustProxy(value)).toEqual(trust);
  });

  it('reads a CIDR list, a bare address as a single-address range', () => {
    const trust = parseTrustProxy('10.0.0.0/8,192.168.0.0/16, ::1/128, 172.16.0.5');
    expect(trust.mode).toBe('cidrs');
    const ranges = trust.mode === 'cidrs' ? trust.cidrs : [];
    expect(ranges.map(([network, prefix]) => `${network.toString()}/${prefix}`)).toEqual([
      '10.0.0.0/8',
      '192.168.0.0/16',
      '::1/128',
      '172.16.0.5/32',
    ]);
  });

  it('turns an IPv4-mapped range into the IPv4 range', () => {
    const trust = parseTrustProxy('::ffff:10.0.0.0/104');
    expect(callerAddress('10.1.2.3', headers({ 'X-Forwarded-For': '203.0.113.9' }), trust)).toBe(
      '203.0.113.9',
    );
  });

  it.each([
    '',
    'yes',
    'true',
    '-1',
    '1.5',
    '10.0.0.0/33',
    '::1/129',
    '10.0.0/8',
    '0x0a.0.0.0/8',
    '10.0.0.0/8,,192.168.0.0/16',
    '10.0.0.0/8;192.168.0.0/16',
    '99999999999999999999',
  ])('refuses %j', (value) => {
    expect(() => parseTrustProxy(value)).toThrow(/^TRUST_PROXY: /);
  });
});
