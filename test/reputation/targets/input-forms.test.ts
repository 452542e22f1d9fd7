import { describe, expect, it } from 'vitest';
import { echo, inputForm } from '../../../src/reputation/targets/input-forms.js';

/**
 * The forms people paste into a field meant for another, recognised before a target is read, so
 * the refusal can say what was given (src/reputation/targets/input-forms.ts).
 */

describe('inputForm', () => {
  it.each([
    ['nothing', '', { form: 'empty' }],
    ['white space only', ' \t\n', { form: 'empty' }],
    ['a URL', 'https://Mail.Example.com/login?next=/', { form: 'url', host: 'mail.example.com' }],
    ['a URL with a port', 'http://example.org:8080/', { form: 'url', host: 'example.org' }],
    ['a URL of an address', 'http://8.8.8.8/dns', { form: 'url', host: '8.8.8.8' }],
    [
      'a URL of an IPv6 address',
      'http://[2001:4860::8888]/',
      { form: 'url', host: '2001:4860::8888' },
    ],
    ['a host and a path', 'example.com/about', { form: 'url', host: 'example.com' }],
    ['an e-mail address', 'Postmaster@Example.COM', { form: 'email', domain: 'example.com' }],
    ['a mailto: link', 'mailto:dmarc@example.net', { form: 'email', domain: 'example.net' }],
    ['an IPv4 network', '192.0.2.0/24', { form: 'network' }],
    ['an IPv6 network', '2001:db8::/32', { form: 'network' }],
    ['an address and its port', '8.8.8.8:53', { form: 'port', host: '8.8.8.8' }],
    [
      'an IPv6 address and its port',
      '[2001:4860::8888]:53',
      { form: 'port', host: '2001:4860::8888' },
    ],
    ['a host and its port', 'MX.example.com:25', { form: 'port', host: 'mx.example.com' }],
    [
      'an IPv6 address in brackets',
      '[2001:4860::8888]',
      { form: 'bracketed', address: '2001:4860::8888' },
    ],
    ['an IPv4 address', '8.8.8.8', { form: 'address', address: '8.8.8.8' }],
    ['a private address', ' 10.0.0.1 ', { form: 'address', address: '10.0.0.1' }],
    [
      'an IPv6 address',
      '2001:4860:4860::8888',
      { form: 'address', address: '2001:4860:4860::8888' },
    ],
    ['a host name', 'mail.example.com', { form: 'name' }],
    ['a malformed address', '1.2.3', { form: 'name' }],
    ['a name with a space', 'mail example.com', { form: 'name' }],
    ['a network of no address', 'example.com/24', { form: 'url', host: 'example.com' }],
  ])('reads %s (%j) as its form', (_, text, form) => {
    expect(inputForm(text)).toEqual(form);
  });
});

describe('echo', () => {
  it('repeats a short text as it is, trimmed', () => {
    expect(echo('  example.com ')).toBe('example.com');
  });

  it('clips a long text to 64 characters, the last an ellipsis', () => {
    const clipped = echo(`${'a'.repeat(300)}.com`);
    expect(clipped).toHaveLength(64);
    expect(clipped.endsWith('a…')).toBe(true);
  });
});
