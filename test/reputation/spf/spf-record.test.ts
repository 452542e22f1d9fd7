import { describe, expect, it } from 'vitest';
import {
  ip4Network,
  parseSpfRecord,
  selectSpfRecord,
} from '../../../src/reputation/spf/spf-record.js';

describe('selectSpfRecord', () => {
  it.each([
    { txt: [], expected: { status: 'none' } },
    { txt: ['google-site-verification=abc'], expected: { status: 'none' } },
    { txt: ['v=spf10 -all'], expected: { status: 'none' } },
    { txt: ['v=spf1'], expected: { status: 'found', record: 'v=spf1' } },
    { txt: ['x', 'V=SPF1 -all'], expected: { status: 'found', record: 'V=SPF1 -all' } },
    {
      txt: ['v=spf1 a -all', 'v=spf1 mx -all'],
      expected: { status: 'multiple', records: ['v=spf1 a -all', 'v=spf1 mx -all'] },
    },
  ])('picks the v=spf1 record out of $txt', ({ txt, expected }) => {
    expect(selectSpfRecord(txt)).toEqual(expected);
  });
});

describe('ip4Network', () => {
  it.each([
    ['192.0.2.10', 32, '192.0.2.10'],
    ['192.0.2.10', 24, '192.0.2.0/24'],
    ['192.0.2.77', 28, '192.0.2.64/28'],
    ['203.0.113.255', 0, '0.0.0.0/0'],
  ])('writes %s/%i as %s', (address, prefix, expected) => {
    expect(ip4Network(address, prefix)).toBe(expected);
  });
});

describe('parseSpfRecord', () => {
  const mechanismsOf = (record: string) => {
    const parse = parseSpfRecord(record);
    if (!parse.ok) throw new Error(`${parse.term}: ${parse.reason}`);
    return parse.record.mechanisms;
  };

  it.each([
    ['ip4:192.0.2.10', { kind: 'ip4', qualifier: '+', network: '192.0.2.10' }],
    ['ip4:192.0.2.10/32', { kind: 'ip4', network: '192.0.2.10' }],
    ['-ip4:192.0.2.10/24', { kind: 'ip4', qualifier: '-', network: '192.0.2.0/24' }],
    ['ip6:2001:DB8::1', { kind: 'ip6', network: '2001:db8::1' }],
    ['ip6:2001:db8:1:2::/48', { kind: 'ip6', network: '2001:db8:1::/48' }],
    ['a', { kind: 'a', target: null, ip4Prefix: 32 }],
    ['a/24', { kind: 'a', target: null, ip4Prefix: 24 }],
    ['a//64', { kind: 'a', target: null, ip4Prefix: 32 }],
    [
      'A:Mail.Example.COM./28//64',
      { kind: 'a', target: { macro: false, name: 'mail.example.com' }, ip4Prefix: 28 },
    ],
    ['~mx:example.com', { kind: 'mx', qualifier: '~', target: { name: 'example.com' } }],
    ['mx/30', { kind: 'mx', target: null, ip4Prefix: 30 }],
    ['?include:_spf.example.com', { kind: 'include', qualifier: '?' }],
    ['ptr', { kind: 'ptr', target: null }],
    ['ptr:example.com', { kind: 'ptr', target: { macro: false, name: 'example.com' } }],
    ['exists:%{ir}.%{v}._spf.%{d}', { kind: 'exists', target: { macro: true } }],
    ['include:%{d2}._spf.example.com', { kind: 'include', target: { macro: true } }],
    ['-all', { kind: 'all', qualifier: '-' }],
    ['ALL', { kind: 'all', qualifier: '+' }],
  ])('reads %s', (term, expected) => {
    const [mechanism] = mechanismsOf(`v=spf1 ${term}`);
    expect(mechanism).toMatchObject({ text: term, ...expected });
  });

  it('keeps mechanisms in order and takes redirect apart', () => {
    const parse = parseSpfRecord('v=spf1  a mx  redirect=_spf.example.com ');
    expect(parse).toMatchObject({
      ok: true,
      record: {
        mechanisms: [{ kind: 'a' }, { kind: 'mx' }],
        redirect: { text: 'redirect=_spf.example.com', target: { name: '_spf.example.com' } },
      },
    });
  });

  it('drops exp= and unknown modifiers', () => {
    expect(parseSpfRecord('v=spf1 exp=explain.example.com moo=%{l}cow -all')).toMatchObject({
      ok: true,
      record: { mechanisms: [{ kind: 'all' }], redirect: null },
    });
  });

  it.each([
    ['foo:example.com', 'unknown mechanism "foo"'],
    ['include', 'malformed "include" mechanism'],
    ['all:example.com', 'malformed "all" mechanism'],
    ['ip4:192.0.2', 'invalid IPv4 network ":192.0.2"'],
    ['ip4:192.0.2.1/33', 'invalid CIDR length /33'],
    ['ip4:192.0.2.1/024', 'invalid CIDR length /024'],
    ['ip4:01.2.3.4', 'invalid IPv4 network ":01.2.3.4"'],
    ['ip6:2001:db8::/129', 'invalid CIDR length /129'],
    ['ip6:fe80::1%eth0', 'invalid IPv6 network ":fe80::1%eth0"'],
    ['ip6:192.0.2.1', 'invalid IPv6 network ":192.0.2.1"'],
    ['a:example.com/', 'invalid domain name "example.com/"'],
    ['include:192.0.2.1', 'invalid domain name "192.0.2.1"'],
    ['include:localhost', 'invalid domain name "localhost"'],
    ['include:a..example.com', 'invalid domain name "a..example.com"'],
    ['include:%{z}.example.com', 'invalid domain-spec "%{z}.example.com"'],
    ['exists:%{c}.example.com', 'invalid domain-spec "%{c}.example.com"'],
    ['include:50%.example.com', 'invalid domain-spec "50%.example.com"'],
    ['redirect=a.example.com redirect=b.example.com', '"redirect" appears more than once'],
    ['moo=%', 'invalid modifier value'],
    ['=foo', 'neither a mechanism nor a modifier'],
  ])('refuses %s: %s', (terms, reason) => {
    const parse = parseSpfRecord(`v=spf1 ${terms}`);
    expect(parse).toMatchObject({ ok: false, reason });
  });

  it('names the offending term, so the report can point at it', () => {
    expect(parseSpfRecord('v=spf1 a ip4:300.1.1.1 -all')).toEqual({
      ok: false,
      term: 'ip4:300.1.1.1',
      reason: 'invalid IPv4 network ":300.1.1.1"',
    });
  });

  it('refuses a text that is not an SPF record', () => {
    expect(parseSpfRecord('spf1 a')).toEqual({
      ok: false,
      term: null,
      reason: 'not a v=spf1 record',
    });
  });
});
