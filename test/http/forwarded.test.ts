import { describe, expect, it } from 'vitest';
import { parseTrustProxy, trustedProxyCount } from '../../src/http/caller.js';
import { entryOfOutermost, hostOf, parseForwarded, schemeOf } from '../../src/http/forwarded.js';

describe('parseForwarded (RFC 7239 §4)', () => {
  it.each([
    [
      'for=192.0.2.60;proto=http;by=203.0.113.43',
      [{ for: '192.0.2.60', proto: 'http', by: '203.0.113.43' }],
    ],
    [
      'for="[2001:db8:cafe::17]:4711";proto=https, for=198.51.100.17;host=rep.example.org',
      [
        { for: '[2001:db8:cafe::17]:4711', proto: 'https' },
        { for: '198.51.100.17', host: 'rep.example.org' },
      ],
    ],
    ['Proto=HTTPS;HOST="a.example"', [{ proto: 'HTTPS', host: 'a.example' }]],
    ['for="a\\"b";host=x.example', [{ for: 'a"b', host: 'x.example' }]],
    [
      'host="with,comma";proto=https, proto=http',
      [{ host: 'with,comma', proto: 'https' }, { proto: 'http' }],
    ],
  ])('reads %s', (header, elements) => {
    expect(parseForwarded(header)).toEqual(elements);
  });

  it.each([
    ['a parameter twice', 'proto=http;proto=https, proto=http', [{}, { proto: 'http' }]],
    ['garbage', 'nonsense, proto=https', [{}, { proto: 'https' }]],
    ['an unclosed quote', 'host="a.example', [{}]],
  ])('keeps the place of an element with %s, empty', (_case, header, elements) => {
    expect(parseForwarded(header)).toEqual(elements);
  });
});

describe('the entry of the outermost trusted proxy', () => {
  it.each([
    [['a', 'b', 'c'], 1, 'c'],
    [['a', 'b', 'c'], 2, 'b'],
    [['a', 'b', 'c'], 5, 'a'],
    [['only'], 2, 'only'],
    [['a'], 0, undefined],
    [[], 1, undefined],
  ])('of %j with %d trusted is %s', (entries, trusted, entry) => {
    expect(entryOfOutermost(entries, trusted)).toBe(entry);
  });

  it.each([
    ['none', '127.0.0.1', '', 0],
    ['cloudflare', '203.0.113.9', '', 1],
    ['2', '127.0.0.1', '', 2],
    ['127.0.0.1/32', '127.0.0.1', '198.51.100.7', 1],
    ['127.0.0.1/32', '198.51.100.9', '', 0],
    ['10.0.0.0/8,127.0.0.1', '127.0.0.1', '198.51.100.7, 10.1.2.3', 2],
    ['10.0.0.0/8,127.0.0.1', '127.0.0.1', '10.9.9.9, 10.1.2.3', 3],
  ])(
    'TRUST_PROXY=%s trusts, from peer %s with X-Forwarded-For "%s", %d proxies',
    (setting, peer, xff, count) => {
      const header = (name: string) => (name === 'x-forwarded-for' && xff ? xff : undefined);
      expect(trustedProxyCount(peer, header, parseTrustProxy(setting))).toBe(count);
    },
  );
});

describe('forwarded values', () => {
  it.each([
    ['https', 'https'],
    ['HTTP', 'http'],
    [' https ', 'https'],
    ['ftp', undefined],
    ['https://x', undefined],
    [undefined, undefined],
  ])('scheme %s is %s', (value, scheme) => {
    expect(schemeOf(value)).toBe(scheme);
  });

  it.each([
    ['rep.example.org', 'rep.example.org'],
    ['Rep.Example.org:8443', 'rep.example.org:8443'],
    ['[2001:db8::1]:8080', '[2001:db8::1]:8080'],
    ['198.51.100.7', '198.51.100.7'],
    ['evil.example/path', undefined],
    ['evil.example@x', undefined],
    ['a b', undefined],
    ['', undefined],
    ['-bad.example', undefined],
  ])('host %s is %s', (value, host) => {
    expect(hostOf(value)).toBe(host);
  });
});
