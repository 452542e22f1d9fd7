import { describe, expect, it } from 'vitest';
import { displayName, parseTarget } from '../../../src/reputation/targets/targets.js';

const label63 = 'a'.repeat(63);
/** Four labels and dots: 63 + 1 + 63 + 1 + 63 + 1 + 57 + 4 = 253 characters. */
const name253 = `${label63}.${label63}.${label63}.${'b'.repeat(57)}.com`;
const name254 = `${label63}.${label63}.${label63}.${'b'.repeat(58)}.com`;

describe('parseTarget: IPv4 addresses', () => {
  it.each(['8.8.8.8', '1.1.1.1', '100.128.0.1', '172.32.0.1', '198.20.0.1', '223.255.255.254'])(
    'accepts the public address %s',
    (address) => {
      expect(parseTarget(address)).toEqual({ ok: true, target: { kind: 'ipv4', address } });
    },
  );

  it('trims surrounding white space', () => {
    expect(parseTarget('  8.8.4.4\n')).toEqual({
      ok: true,
      target: { kind: 'ipv4', address: '8.8.4.4' },
    });
  });

  it.each([
    ['a short form', '1.2.3'],
    ['a leading zero (read as octal by inet_aton)', '01.2.3.4'],
    ['five octets', '1.2.3.4.5'],
    ['an octet above 255', '256.1.1.1'],
    ['a dotted quad with a trailing dot', '8.8.8.8.'],
    ['a single number', '134744072'],
  ])('refuses %s (%s) as a malformed address', (_, text) => {
    expect(parseTarget(text)).toEqual({ ok: false, reason: `${text} is not a valid IPv4 address` });
  });

  it.each([
    ['white space only', ' '],
    ['the empty string', ''],
    ['a hex octet', '0x7f.0.0.1'],
    ['a CIDR range', '8.8.8.0/24'],
    ['an IPv6 network', '2a00:1450::/32'],
    ['a URL', 'http://example.com/'],
  ])('refuses %s (%j)', (_, text) => {
    const parsed = parseTarget(text);
    expect(parsed.ok).toBe(false);
  });

  it('never reads a hex form as the address it stands for', () => {
    expect(parseTarget('0x7f.0.0.1')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not a valid host name/),
    });
  });

  // RFC 6890 special-purpose ranges: none of them may be checked.
  it.each([
    ['private 10/8', '10.1.2.3'],
    ['loopback 127/8', '127.0.0.1'],
    ['loopback 127/8, far end', '127.255.255.254'],
    ['link-local 169.254/16', '169.254.169.254'],
    ['CGNAT 100.64/10', '100.64.0.1'],
    ['CGNAT 100.64/10, far end', '100.127.255.255'],
    ['private 192.168/16', '192.168.1.1'],
    ['private 172.16/12', '172.16.0.1'],
    ['private 172.16/12, far end', '172.31.255.255'],
    ['multicast 224/4', '224.0.0.1'],
    ['multicast 224/4, far end', '239.255.255.255'],
    ['reserved 240/4', '240.0.0.1'],
    ['"this network" 0/8', '0.1.2.3'],
    ['the unspecified address', '0.0.0.0'],
    ['limited broadcast', '255.255.255.255'],
    ['documentation TEST-NET-1', '192.0.2.1'],
    ['documentation TEST-NET-2', '198.51.100.7'],
    ['documentation TEST-NET-3', '203.0.113.5'],
    ['benchmarking 198.18/15', '198.18.0.1'],
    ['benchmarking 198.18/15, far end', '198.19.255.255'],
  ])('refuses %s (%s) as not public', (_, address) => {
    expect(parseTarget(address)).toEqual({
      ok: false,
      reason: `${address} is not a public IPv4 address`,
    });
  });
});

describe('parseTarget: IPv6 addresses', () => {
  // RFC 4291 §2.2's three text forms, each shown in the RFC 5952 canonical form.
  it.each([
    ['the canonical form', '2a00:1450:4001:80b::200e', '2a00:1450:4001:80b::200e'],
    ['the full form', '2a00:1450:4001:080b:0000:0000:0000:200e', '2a00:1450:4001:80b::200e'],
    ['upper case', '2A00:1450:4001:80B::200E', '2a00:1450:4001:80b::200e'],
    ['zeros written out', '2a00:1450:4001:80b:0:0:0:200e', '2a00:1450:4001:80b::200e'],
    ['"::" for one zero group', '2a00:1450::80b:1:2:3:200e', '2a00:1450:0:80b:1:2:3:200e'],
    ['"::" at the end', '2a00:1450:4001::', '2a00:1450:4001::'],
    ['the first of two equal zero runs compressed', '2a00:0:0:1:0:0:1:1', '2a00::1:0:0:1:1'],
    ['the longer of two zero runs compressed', '2a00:0:1:0:0:0:1:1', '2a00:0:1::1:1'],
    ['an embedded dotted quad', '2a00:1450:4001:80b::8.8.4.4', '2a00:1450:4001:80b::808:404'],
    [
      'the longest canonical address (39 characters)',
      '2a00:1450:4001:80bd:abcd:ef01:2345:6789',
      '2a00:1450:4001:80bd:abcd:ef01:2345:6789',
    ],
    ['white space around', ' 2001:4860:4860::8888\n', '2001:4860:4860::8888'],
    ['an AMT relay (RFC 7450, globally reachable)', '2001:3::1', '2001:3::1'],
    ['AS112 (RFC 7535, globally reachable)', '2001:4:112::1', '2001:4:112::1'],
  ])('accepts %s', (_, text, address) => {
    expect(parseTarget(text)).toEqual({ ok: true, target: { kind: 'ipv6', address } });
  });

  it.each([
    ['two "::"', '2001:db8::1::2'],
    ['nine groups', '1:2:3:4:5:6:7:8:9'],
    ['seven groups without "::"', '2a00:1450:4001:80b:0:0:200e'],
    ['a group of five digits', '2a00:14500::1'],
    ['a letter past f', '2a00:145g::1'],
    ['a zone index (RFC 4007)', 'fe80::1%eth0'],
    ['brackets', '[2a00:1450::1]'],
    ['a single colon at the start', ':2a00:1450::1'],
    ['":::"', '2a00:::1'],
    ['a dotted quad not at the end', '2a00:8.8.4.4::1'],
    ['a short dotted quad', '::ffff:1.2.3'],
    ['an octal-looking dotted quad', '::ffff:01.2.3.4'],
    ['a lone colon', ':'],
  ])('refuses %s as a malformed IPv6 address', (_, text) => {
    expect(parseTarget(text)).toEqual({ ok: false, reason: `${text} is not a valid IPv6 address` });
  });

  // RFC 6890, the IANA IPv6 special-purpose registry, and docs/ipv6.md: none may be checked.
  it.each([
    ['unspecified ::/128', '::'],
    ['loopback ::1/128', '::1'],
    ['IPv4-mapped ::ffff:0:0/96, private', '::ffff:10.0.0.1'],
    ['IPv4-mapped ::ffff:0:0/96, public', '::ffff:8.8.8.8'],
    ['IPv4-mapped ::ffff:0:0/96, in hex', '::ffff:7f00:1'],
    ['IPv4-compatible ::/96 (deprecated)', '::8.8.8.8'],
    ['IPv4-translated ::ffff:0:0:0/96', '::ffff:0:8.8.8.8'],
    ['NAT64 64:ff9b::/96', '64:ff9b::8.8.8.8'],
    ['NAT64 local-use 64:ff9b:1::/48', '64:ff9b:1::a00:1'],
    ['discard-only 100::/64', '100::1'],
    ['dummy prefix 100:0:0:1::/64', '100:0:0:1::1'],
    ['IETF protocol assignments 2001::/23', '2001:1::1'],
    ['Teredo 2001::/32', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['benchmarking 2001:2::/48', '2001:2::1'],
    ['ORCHID 2001:10::/28', '2001:10::1'],
    ['ORCHIDv2 2001:20::/28', '2001:20::1'],
    ['DRIP 2001:30::/28', '2001:30::1'],
    ['documentation 2001:db8::/32', '2001:db8::1'],
    ['documentation 2001:db8::/32, far end', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['documentation 3fff::/20', '3fff:fff::1'],
    ['6to4 2002::/16', '2002:808:808::1'],
    ['segment routing 5f00::/16', '5f00::1'],
    ['unique local fc00::/7', 'fc00::1'],
    ['unique local fc00::/7, fd00::/8', 'fdff:ffff:ffff::1'],
    ['link-local fe80::/10', 'fe80::1'],
    ['link-local fe80::/10, far end', 'febf:ffff::1'],
    ['site-local fec0::/10 (deprecated)', 'fec0::1'],
    ['multicast ff00::/8', 'ff02::1'],
    ['multicast ff00::/8, global scope', 'ff0e::1'],
    ['outside 2000::/3, reserved by the IETF', '4000::1'],
    ['outside 2000::/3, reserved by the IETF, low', '1::1'],
  ])('refuses %s (%s) as not public', (_, address) => {
    expect(parseTarget(address)).toEqual({
      ok: false,
      reason: `${address} is not a public IPv6 address`,
    });
  });
});

describe('parseTarget: host names', () => {
  it.each([
    ['a plain name', 'mail.example.com', 'mail.example.com', 'mail.example.com'],
    ['a trailing dot', 'mail.example.com.', 'mail.example.com', 'mail.example.com'],
    ['upper case', 'MAIL.Example.COM', 'mail.example.com', 'mail.example.com'],
    ['a Cyrillic IDN', 'пример.рф', 'xn--e1afmkfd.xn--p1ai', 'пример.рф'],
    ['a German IDN', 'münchen.de', 'xn--mnchen-3ya.de', 'münchen.de'],
    ['an upper-case IDN', 'MÜNCHEN.DE', 'xn--mnchen-3ya.de', 'münchen.de'],
    ['an A-label', 'xn--mnchen-3ya.de', 'xn--mnchen-3ya.de', 'münchen.de'],
    [
      'numeric labels under a real TLD',
      '4.3.2.1.example.com',
      '4.3.2.1.example.com',
      '4.3.2.1.example.com',
    ],
    ['253 characters', name253, name253, name253],
    ['253 characters and the root dot', `${name253}.`, name253, name253],
    [
      'a look-alike (Cyrillic а in a Latin label)',
      'аpple.com',
      'xn--pple-43d.com',
      'xn--pple-43d.com',
    ],
  ])('accepts %s', (_, text, name, display) => {
    expect(parseTarget(text)).toEqual({ ok: true, target: { kind: 'domain', name, display } });
  });

  it.each([
    ['254 characters', name254],
    ['a 64-character label', `${'a'.repeat(64)}.com`],
    ['an underscore (not LDH, RFC 1123 §2.1)', 'mail_1.example.com'],
    ['a service label', '_dmarc.example.com'],
    ['an empty label', 'a..b'],
    ['a leading hyphen', '-mail.example.com'],
    ['a trailing hyphen', 'mail-.example.com'],
    ['an invalid A-label', 'xn--abc.com'],
    ['a numeric top-level label', 'example.123'],
    ['a space inside', 'mail example.com'],
    ['two trailing dots', 'example.com..'],
  ])('refuses %s as not a valid host name', (_, text) => {
    expect(parseTarget(text)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not a valid host name|is too long|has a label of 64/),
    });
  });

  it.each([
    ['localhost', 'localhost'],
    ['a name under localhost', 'foo.localhost'],
    ['a single label', 'mailserver'],
    ['a single label with the root dot', 'mailserver.'],
    ['.local (mDNS, RFC 6762)', 'printer.local'],
    ['.internal', 'db.corp.internal'],
    ['.home.arpa (RFC 8375)', 'router.home.arpa'],
    ['.test (RFC 6761)', 'mail.test'],
    ['.onion (RFC 7686)', 'duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion'],
    ['.invalid', 'mail.invalid'],
    ['.example', 'mail.example'],
    ['an in-addr.arpa name', '1.2.0.192.in-addr.arpa'],
    ['upper case .LOCAL', 'NAS.LOCAL'],
  ])('refuses %s as not public', (_, text) => {
    expect(parseTarget(text)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not public/),
    });
  });
});

describe('displayName: what people are shown (UTS #39 mixed-script detection)', () => {
  it.each([
    ['an ASCII name', 'mail.example.com', 'mail.example.com'],
    ['a Cyrillic name', 'xn--e1afmkfd.xn--p1ai', 'пример.рф'],
    ['Latin with diacritics', 'xn--mnchen-3ya.de', 'münchen.de'],
    ['a Greek label', 'xn--hxargifdar.gr', 'ελληνικά.gr'],
    [
      'Hiragana, Katakana and Han in one label (one writing system)',
      'xn--v8j0cwa6gzha3lrdr510cymwb.jp',
      'ひらがなカタカナ漢字.jp',
    ],
    [
      'digits and hyphens beside Cyrillic (Common characters)',
      'xn---1-9kc0b5b.xn--p1ai',
      'бук-1.рф',
    ],
    ['scripts that differ only between labels', 'xn--e1afmkfd.com', 'пример.com'],
  ])('shows %s in Unicode', (_, ascii, unicode) => {
    expect(displayName(ascii)).toEqual({ display: unicode });
  });

  it.each([
    ['a Cyrillic а in a Latin label', 'xn--pple-43d.com', 'аpple.com', ['Cyrillic', 'Latin']],
    ['a Greek ο in a Latin label', 'xn--gogle-rce.com', 'gοogle.com', ['Greek', 'Latin']],
    ['Latin letters in a Cyrillic label', 'xn--sr-blcq.xn--p1ai', 'sбеr.рф', ['Cyrillic', 'Latin']],
    ['Latin and Han in one label', 'xn--abc-xt3f.jp', 'abc徭.jp', ['Han', 'Latin']],
  ])('shows a label mixing scripts in ASCII: %s', (_, ascii, unicode, scripts) => {
    expect(displayName(ascii)).toEqual({ display: ascii, mixedScripts: { unicode, scripts } });
  });

  it('shows a name whose punycode does not decode as it is', () => {
    expect(displayName('xn--bad-.com')).toEqual({ display: 'xn--bad-.com' });
  });
});
