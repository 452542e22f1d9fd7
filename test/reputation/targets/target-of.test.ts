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
});
