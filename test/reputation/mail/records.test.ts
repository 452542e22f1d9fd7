import { describe, expect, it } from 'vitest';
import { asPkcs1, rsaDkimKeys } from '../../../fixtures/dkim-keys.js';
import { readBimiRecord } from '../../../src/reputation/mail/bimi.js';
import { readDkimKey } from '../../../src/reputation/mail/dkim-key.js';
import {
  authorizesReports,
  reportAuthorizationName,
  reportDomainOf,
} from '../../../src/reputation/mail/dmarc-reports.js';
import {
  isPolicyMediaType,
  mxMatches,
  parsePolicy,
  readStsRecords,
  uncoveredMx,
} from '../../../src/reputation/mail/mta-sts.js';
import { parseTagList } from '../../../src/reputation/checks/tag-list.js';
import { readTlsRpt } from '../../../src/reputation/mail/tls-rpt.js';

/** An RSA public key of `bits`, as a DKIM record's p= carries it: SPKI or bare PKCS #1, base64. */
function rsaKey(bits: keyof typeof rsaDkimKeys, type: 'spki' | 'pkcs1' = 'spki'): string {
  return type === 'spki' ? rsaDkimKeys[bits] : asPkcs1(rsaDkimKeys[bits]);
}

describe('the tag-list syntax (RFC 6376 §3.2)', () => {
  it('reads tags with white space around them and a trailing semicolon', () => {
    const list = parseTagList(' v = DKIM1 ; k=rsa;\tp = abc ;');
    expect(list).toEqual({
      ok: true,
      tags: new Map([
        ['v', 'DKIM1'],
        ['k', 'rsa'],
        ['p', 'abc'],
      ]),
    });
  });

  it('rejects a tag named twice', () => {
    expect(parseTagList('v=DKIM1; p=a; p=b')).toEqual({
      ok: false,
      reason: 'the tag p appears twice',
    });
  });
});

describe('DKIM key records (RFC 6376 §3.6.1, RFC 8301, RFC 8463)', () => {
  // RFC 6376 Appendix C: the example key of brisbane._domainkey.example.com, 1024 bits.
  const rfc6376Key =
    'v=DKIM1; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDwIRP/UC3SBsEmGqZ9ZJW3/DkMoGeLnQg1fWn7/zYtIxN2SnFCjxOCKG9v3b4jYfcTNh5ijSsq631uBItLa7od+v/RtdC2UzJ1lWT947qR+Rcac2gbto/NMqJ0fzfVjH4OuKhitdY9tf6mcwGjaNBcWToIMmPSPDdQPNUYckcQ2QIDAQAB';
  // RFC 8463 Appendix A.2: the example Ed25519 key.
  const rfc8463Key = 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';

  it('reads RFC 6376’s example key: RSA 1024 bits, usable, with the RFC 8301 warning', () => {
    expect(readDkimKey(rfc6376Key)).toEqual({
      status: 'found',
      key_type: 'rsa',
      key_bits: 1024,
      testing: false,
      warning: 'an RSA key of 1024 bits: 2048 is advised (RFC 8301 §3.2)',
      detail: null,
    });
  });

  it('reads RFC 8463’s example Ed25519 key', () => {
    expect(readDkimKey(rfc8463Key)).toMatchObject({
      status: 'found',
      key_type: 'ed25519',
      key_bits: 256,
    });
  });

  it.each([
    [2048, 'spki'],
    [4096, 'spki'],
    [2048, 'pkcs1'],
  ] as const)('reads an RSA key of %i bits (%s) without a warning', (bits, type) => {
    expect(readDkimKey(`v=DKIM1; k=rsa; p=${rsaKey(bits, type)}`)).toMatchObject({
      status: 'found',
      key_bits: bits,
      warning: null,
    });
  });

  it('reports an RSA key under 1024 bits as invalid (RFC 8301 §3.2)', () => {
    expect(readDkimKey(`v=DKIM1; p=${rsaKey(512)}`)).toMatchObject({
      status: 'invalid',
      key_type: 'rsa',
      key_bits: 512,
      detail: expect.stringContaining('RFC 8301'),
    });
  });

  it('reports an empty p= as revoked', () => {
    expect(readDkimKey('v=DKIM1; k=rsa; p=')).toMatchObject({ status: 'revoked', key_type: 'rsa' });
  });

  it('reads t=y as testing, among other flags', () => {
    expect(readDkimKey(`${rfc8463Key}; t=s:y`)).toMatchObject({ status: 'found', testing: true });
  });

  it.each([
    ['a v= that is not first', `k=rsa; v=DKIM1; p=${rsaKey(2048)}`, /v= must come first/],
    ['another version', 'v=DKIM2; p=abcd', /v= must come first/],
    ['an unknown key type', 'v=DKIM1; k=dsa; p=abcd', /unknown key type/],
    ['a key for another service', `v=DKIM1; s=tlsrpt; p=${rsaKey(2048)}`, /does not allow email/],
    ['no p=', 'v=DKIM1; k=rsa', /no p= tag/],
    ['p= that is not base64', 'v=DKIM1; p=@@@@', /not base64/],
    ['p= that is no RSA key', 'v=DKIM1; p=AAECAwQFBgc=', /not an RSA public key/],
    ['an Ed25519 key of the wrong size', 'v=DKIM1; k=ed25519; p=AAECAwQFBgc=', /32 octets/],
  ])('reports %s as invalid', (_case, record, detail) => {
    const key = readDkimKey(record);
    expect(key.status).toBe('invalid');
    expect(key.detail).toMatch(detail);
  });

  it('accepts a p= folded with white space', () => {
    const folded = rfc8463Key.replace('p=11qYAYKx', 'p=11qY AYKx\t');
    expect(readDkimKey(folded)).toMatchObject({ status: 'found', key_type: 'ed25519' });
  });
});

describe('DMARC report authorisation (RFC 7489 §7.1)', () => {
  it('finds the domain of a report URI, without its size limit', () => {
    expect(reportDomainOf('mailto:x@Thirdparty.Example.net!10m')).toBe('thirdparty.example.net');
    expect(reportDomainOf('https://example.com/')).toBeUndefined();
  });

  it('asks where RFC 7489 §7.1’s example puts the authorisation', () => {
    expect(reportAuthorizationName('example.com', 'thirdparty.example.net')).toBe(
      'example.com._report._dmarc.thirdparty.example.net',
    );
    expect(authorizesReports(['v=DMARC1'])).toBe(true);
    expect(authorizesReports(['v=spf1 -all'])).toBe(false);
  });
});

describe('BIMI records', () => {
  it('reads l= and a=, and says the logo needs DMARC enforcement', () => {
    const record = 'v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem';
    expect(readBimiRecord(record, true)).toEqual({
      status: 'found',
      record,
      l: 'https://example.com/logo.svg',
      a: 'https://example.com/vmc.pem',
      dmarc_ready: true,
      detail: null,
    });
    expect(readBimiRecord(record, false).detail).toMatch(/needs DMARC at p=quarantine or p=reject/);
  });

  it('reports an l= that is not HTTPS as invalid', () => {
    expect(readBimiRecord('v=BIMI1; l=http://example.com/logo.svg', true)).toMatchObject({
      status: 'invalid',
    });
  });
});

describe('MTA-STS (RFC 8461)', () => {
  // §3.2's example policy.
  const example =
    'version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmx: backupmx.example.com\r\nmax_age: 604800\r\n';

  it('reads §3.1’s example record', () => {
    expect(readStsRecords(['v=STSv1; id=20160831085700Z;'])).toEqual({
      ok: true,
      id: '20160831085700Z',
    });
  });

  it('treats several v=STSv1 records as invalid, and a record of another kind as none (§3.1)', () => {
    expect(readStsRecords(['v=STSv1; id=a', 'v=STSv1; id=b'])).toMatchObject({ ok: false });
    expect(readStsRecords(['v=spf1 -all'])).toBeUndefined();
    expect(readStsRecords(['v=STSv1; id=has-dash'])).toMatchObject({ ok: false });
  });

  it('reads §3.2’s example policy', () => {
    expect(parsePolicy(example)).toEqual({
      ok: true,
      policy: {
        mode: 'enforce',
        mx: ['mail.example.com', '*.example.net', 'backupmx.example.com'],
        max_age: 604800,
      },
    });
  });

  it.each([
    ['a version other than STSv1', example.replace('STSv1', 'STSv2'), /version/],
    ['an unknown mode', example.replace('enforce', 'strict'), /mode strict/],
    ['max_age past a year', example.replace('604800', '31557601'), /max_age/],
    [
      'enforce without mx',
      'version: STSv1\r\nmode: enforce\r\nmax_age: 86400\r\n',
      /without an mx/,
    ],
  ])('rejects %s', (_case, text, reason) => {
    const parsed = parsePolicy(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toMatch(reason);
  });

  it('accepts mode none without mx, and LF line ends', () => {
    expect(parsePolicy('version: STSv1\nmode: none\nmax_age: 0\n')).toMatchObject({
      ok: true,
      policy: { mode: 'none' },
    });
  });

  it.each([
    ['mail.example.com', '*.example.com', true],
    ['example.com', '*.example.com', false],
    ['foo.bar.example.com', '*.example.com', false],
    ['MX1.Example.net.', 'mx1.example.net', true],
  ])('§4.1: %s against %s: %s', (host, pattern, matches) => {
    expect(mxMatches(host, pattern)).toBe(matches);
  });

  it('lists the MX hosts no pattern covers', () => {
    const policy = { mode: 'enforce' as const, mx: ['*.example.net'], max_age: 1 };
    expect(uncoveredMx(['a.example.net', 'mx.other.org'], policy)).toEqual(['mx.other.org']);
  });

  it('wants the policy as text/plain (§3.3)', () => {
    expect(isPolicyMediaType('text/plain; charset=utf-8')).toBe(true);
    expect(isPolicyMediaType('text/html')).toBe(false);
    expect(isPolicyMediaType(null)).toBe(false);
  });
});

describe('TLS-RPT (RFC 8460 §3)', () => {
  it.each([
    'v=TLSRPTv1;rua=mailto:reports@example.com',
    'v=TLSRPTv1; rua=https://reporting.example.com/v1/tlsrpt',
  ])('reads §3’s example %s', (record) => {
    expect(readTlsRpt([record])).toMatchObject({ status: 'found', rua: [expect.any(String)] });
  });

  it('is none without a record and invalid without rua', () => {
    expect(readTlsRpt(['v=spf1 -all']).status).toBe('none');
    expect(readTlsRpt(['v=TLSRPTv1;'])).toMatchObject({
      status: 'invalid',
      detail: 'no rua= report address',
    });
    expect(readTlsRpt(['v=TLSRPTv1; rua=ftp://x'])).toMatchObject({ status: 'invalid' });
  });
});
