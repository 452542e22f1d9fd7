import { describe, expect, it } from 'vitest';
import { targetOf } from '../../../src/reputation/targets/index.js';

/**
 * One reading of a target for every kind of check, the tools' and the watches' alike: the IP check
 * takes an address or a host name, the domain, mail and pool checks a host name only, each kept
 * as its canonical text.
 */

describe('targetOf', () => {
  it.each([
    ['ip', '8.8.8.8', '8.8.8.8'],
    ['ip', '2001:4860:4860:0:0:0:0:8888', '2001:4860:4860::8888'],
    ['ip', 'Mail.Google.COM.', 'mail.google.com'],
    ['domain', 'Gmail.com', 'gmail.com'],
    ['mail', 'bücher.de', 'xn--bcher-kva.de'],
    ['pool', 'pool.mailgun.org', 'pool.mailgun.org'],
  ] as const)('reads kind %s of %s as %s', (kind, input, text) => {
    expect(targetOf(kind, input)).toMatchObject({ ok: true, text });
  });

  it.each([
    ['domain', '8.8.8.8'],
    ['mail', '2001:4860:4860::8888'],
    ['pool', '192.0.2.0/24'],
    ['ip', '10.0.0.1'],
    ['domain', 'localhost'],
  ] as const)('refuses kind %s of %s, with a reason', (kind, input) => {
    const reading = targetOf(kind, input);
    expect(reading.ok).toBe(false);
    expect(!reading.ok && reading.reason.length > 0).toBe(true);
  });

  it('gives a name kind a domain target, its display form beside its ASCII name', () => {
    const reading = targetOf('mail', 'bücher.de');
    expect(reading.ok && reading.target).toEqual({
      kind: 'domain',
      name: 'xn--bcher-kva.de',
      display: 'bücher.de',
    });
  });

  it.each([
    // An address where a name is asked: the IP check takes it.
    [
      'domain',
      '8.8.8.8',
      '8.8.8.8 is an IP address, not a domain name',
      { kind: 'ip', input: '8.8.8.8' },
    ],
    [
      'mail',
      '2001:4860:4860::8888',
      '2001:4860:4860::8888 is an IP address, not a domain name',
      { kind: 'ip', input: '2001:4860:4860::8888' },
    ],
    [
      'pool',
      '185.44.0.10',
      '185.44.0.10 is an IP address, not the host name of a pool',
      { kind: 'ip', input: '185.44.0.10' },
    ],
    [
      'domain',
      '[2001:4860::8888]',
      '[2001:4860::8888] is an IP address, not a domain name',
      { kind: 'ip', input: '2001:4860::8888' },
    ],
    [
      'domain',
      '8.8.8.8:25',
      '8.8.8.8:25 is an IP address and a port, not a domain name',
      { kind: 'ip', input: '8.8.8.8' },
    ],
    [
      'domain',
      'http://8.8.8.8/',
      'http://8.8.8.8/ is a URL, not a domain name',
      { kind: 'ip', input: '8.8.8.8' },
    ],
    // A network: the IP check takes one of its addresses at a time.
    ['domain', '192.0.2.0/24', '192.0.2.0/24 is a network, not a domain name', { kind: 'ip' }],
    [
      'pool',
      '2001:db8::/32',
      '2001:db8::/32 is a network, not the host name of a pool',
      { kind: 'ip' },
    ],
    // An e-mail address where an address is asked: the mail check takes its domain.
    [
      'ip',
      'postmaster@example.com',
      'postmaster@example.com is an e-mail address, not an IP address or a host name',
      { kind: 'mail', input: 'example.com' },
    ],
    [
      'pool',
      'bounce@pool.example.com',
      'bounce@pool.example.com is an e-mail address, not the host name of a pool',
      { kind: 'mail', input: 'pool.example.com' },
    ],
  ] as const)('refuses kind %s of %s as meant for another kind', (kind, input, reason, use) => {
    expect(targetOf(kind, input)).toEqual({ ok: false, reason, use });
  });

  it.each([
    [
      'domain',
      'https://www.example.com/about',
      'https://www.example.com/about is a URL, not a domain name: give its host name alone, www.example.com',
    ],
    [
      'ip',
      'https://8.8.8.8/',
      'https://8.8.8.8/ is a URL, not an IP address or a host name: give its address alone, 8.8.8.8',
    ],
    [
      'pool',
      'pool.example.com/list',
      'pool.example.com/list is a URL, not the host name of a pool: give its host name alone, pool.example.com',
    ],
    [
      'domain',
      'Postmaster@Example.com',
      'Postmaster@Example.com is an e-mail address, not a domain name: give its domain, example.com',
    ],
    [
      'mail',
      'mailto:dmarc@example.net',
      'mailto:dmarc@example.net is an e-mail address, not a domain name: give its domain, example.net',
    ],
    [
      'ip',
      '8.8.8.8:53',
      '8.8.8.8:53 has a port, which no check takes: give the address alone, 8.8.8.8',
    ],
    [
      'mail',
      'mx.example.com:25',
      'mx.example.com:25 has a port, which no check takes: give the host name alone, mx.example.com',
    ],
    [
      'ip',
      '[2001:4860::8888]',
      '[2001:4860::8888] is in brackets, as a URL writes an IPv6 address: give the address alone, 2001:4860::8888',
    ],
    ['ip', '192.0.2.0/24', '192.0.2.0/24 is a network, not one address: give one of its addresses'],
  ] as const)('refuses kind %s of %s, saying the form it takes', (kind, input, reason) => {
    expect(targetOf(kind, input)).toEqual({ ok: false, reason });
  });

  it.each([
    ['ip', '', 'the value is empty: give an IP address or a host name'],
    ['domain', '   ', 'the value is empty: give a domain name'],
    ['pool', '\n', 'the value is empty: give the host name of a pool'],
  ] as const)('refuses kind %s of %j as empty, with no leading space', (kind, input, reason) => {
    expect(targetOf(kind, input)).toEqual({ ok: false, reason });
  });

  it('says a long name is too long, repeating at most 64 of its characters', () => {
    const name = `${'mail-'.repeat(58)}example.com`;
    const reading = targetOf('domain', name);
    expect(reading).toEqual({
      ok: false,
      reason: `${name.slice(0, 63)}… is too long: ${name.length} characters, where a host name has at most 253 (RFC 1035 §2.3.4)`,
    });
  });

  it('says which label is too long, without repeating the name whole', () => {
    const name = `${'x'.repeat(70)}.example.com`;
    const reading = targetOf('mail', name);
    expect(reading).toEqual({
      ok: false,
      reason: `${name.slice(0, 63)}… has a label of 70 characters, where a label has at most 63 (RFC 1035 §2.3.4)`,
    });
  });

  it('clips a malformed name it repeats', () => {
    const name = `${'bad_label.'.repeat(20)}com`;
    const reading = targetOf('domain', name);
    expect(reading).toEqual({
      ok: false,
      reason: `${name.slice(0, 63)}… is not a valid host name`,
    });
  });
});
