import { describe, expect, it } from 'vitest';
import { displayName, isSpecialUseName, parseTarget } from '../../src/reputation/targets.js';

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
    ['an IPv6 address', '2001:db8::1'],
    ['a CIDR range', '8.8.8.0/24'],
    ['a URL', 'http://example.com/'],
  ])('refuses %s (%j)', (_, text) => {
    const parsed = parseTarget(text);
    expect(parsed.ok).toBe(false);
  });

  it('never reads a hex form as the address it stands for', () => {
    expect(parseTarget('0x7f.0.0.1')).toMatchObject({ ok: false, reason: /not a valid host name/ });
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
      reason: /not a valid host name|longer than 253/,
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
    expect(parseTarget(text)).toMatchObject({ ok: false, reason: /not public/ });
  });
});

describe('isSpecialUseName', () => {
  it.each([
    'localhost',
    'db.localhost',
    'kubernetes.default.svc.cluster.local',
    'metadata.google.internal',
    'router.home.arpa',
    '10.in-addr.arpa',
    'x.onion',
    'mailhost',
  ])('counts %s as special-use: never asked', (name) => {
    expect(isSpecialUseName(name)).toBe(true);
  });

  it.each(['example.com', 'vault.corp.example-internal.com', 'local.example.net', 'internal.co'])(
    'counts %s as public',
    (name) => {
      expect(isSpecialUseName(name)).toBe(false);
    },
  );
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
