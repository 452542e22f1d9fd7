import { describe, expect, it } from 'vitest';
import { readDmarcLookup } from '../../src/reputation/index.js';
import { mattering } from '../../src/reports/index.js';
import {
  mailtoAddress,
  namesAddress,
  namesInbox,
  suggestDmarc,
  suggestTlsRpt,
} from '../../src/reports/rua/index.js';

/**
 * The records an inbox suggests and what verifies it (docs/reports.md, "Pointing rua here",
 * "Verification"), from the TXT answers a domain may give, and the sources whose reputation the
 * summary looks up.
 */

const address = 'dmarc+Id1@reports.example.org';
const found = (...records: string[]) => readDmarcLookup({ status: 'answer', records, ttl: 300 });

describe('the suggested DMARC record', () => {
  it.each([
    [
      'adds the address to rua, keeping the order and every other tag',
      found('v=DMARC1;p=reject;rua=mailto:a@x.example;ruf=mailto:f@x.example;adkim=s'),
      `v=DMARC1; p=reject; rua=mailto:a@x.example,mailto:${address}; ruf=mailto:f@x.example; adkim=s`,
      'update',
    ],
    [
      'adds rua where the record has none',
      found('v=DMARC1; p=none'),
      `v=DMARC1; p=none; rua=mailto:${address}`,
      'update',
    ],
    [
      'changes nothing when rua names the address already, in another case and with a size',
      found(`v=DMARC1; p=none; rua=mailto:${address.toUpperCase()}!5m`),
      `v=DMARC1; p=none; rua=mailto:${address.toUpperCase()}!5m`,
      'none',
    ],
    [
      'replaces several records, which receivers ignore, by one',
      found('v=DMARC1; p=none', 'v=DMARC1; p=reject'),
      `v=DMARC1; p=none; rua=mailto:${address}`,
      'create',
    ],
    [
      'replaces a record that is not a tag list by a valid one',
      found('v=DMARC1; p=none; p=reject'),
      `v=DMARC1; p=none; rua=mailto:${address}`,
      'update',
    ],
  ])('%s', (_what, own, value, change) => {
    expect(suggestDmarc('example.com', address, own, null)).toMatchObject({
      name: '_dmarc.example.com',
      value,
      change,
    });
  });

  it('has no value when the DNS did not answer, and says to ask again', () => {
    const suggested = suggestDmarc('example.com', address, { kind: 'unavailable' }, null);
    expect(suggested).toMatchObject({ value: null, change: null });
    expect(suggested.detail).toContain('verify');
  });
});

describe('the suggested TLS-RPT record', () => {
  it.each([
    [[], `v=TLSRPTv1; rua=mailto:${address}`, 'create'],
    [
      ['v=TLSRPTv1; rua=https://reports.example.net/tls'],
      `v=TLSRPTv1; rua=https://reports.example.net/tls,mailto:${address}`,
      'update',
    ],
    [
      ['v=TLSRPTv1; rua=mailto:a@x.example', 'v=TLSRPTv1; rua=mailto:b@x.example'],
      `v=TLSRPTv1; rua=mailto:${address}`,
      'update',
    ],
  ])('from %j: %s', (records, value, change) => {
    expect(suggestTlsRpt('example.com', address, records)).toMatchObject({ value, change });
  });
});

describe('verification', () => {
  it.each([
    [found(`v=DMARC1; p=none; rua=mailto:${address}`), [], true],
    [found(`v=DMARC1; p=none; rua=mailto:dmarc%2BId1@reports.example.org`), [], true],
    [found('v=DMARC1; p=none; rua=mailto:dmarc+Id2@reports.example.org'), [], false],
    [found(`v=DMARC1; p=none; ruf=mailto:${address}`), [], false],
    [{ kind: 'none' } as const, [`v=TLSRPTv1; rua=mailto:${address}`], true],
    [{ kind: 'none' } as const, undefined, false],
  ])('of %j with TLS-RPT %j is %s', (own, tls, verified) => {
    expect(namesInbox(own, tls, address)).toBe(verified);
  });

  it('reads mailto URIs without their size or query, and no other scheme', () => {
    expect(mailtoAddress('mailto:a%40b@x.example!10m')).toBe('a@b@x.example');
    expect(mailtoAddress('MAILTO:a@x.example?subject=x')).toBe('a@x.example');
    expect(mailtoAddress('https://x.example/')).toBeUndefined();
    expect(namesAddress(' mailto:DMARC+Id1@Reports.Example.Org ', address)).toBe(true);
  });
});

describe('the sources that matter', () => {
  const source = (ip: string, messages: number, fail: number) => ({ ip, messages, fail });

  it('are the first 20 by messages and each failing more than 1 % of the messages', () => {
    const sources = [
      ...Array.from({ length: 25 }, (_, index) => source(`8.8.8.${index}`, 1000 - index, 0)),
      source('8.8.9.1', 300, 300),
      source('8.8.9.2', 280, 260),
      source('8.8.9.3', 10, 10),
    ];
    const total = sources.reduce((sum, each) => sum + each.messages, 0);
    const chosen = mattering(sources, total);
    expect(chosen.size).toBe(22);
    expect(chosen.has('8.8.8.19')).toBe(true);
    expect(chosen.has('8.8.8.20')).toBe(false);
    // 300 and 260 failures are over 1 % of 25,290 messages; 10 is not.
    expect([...chosen].filter((ip) => ip.startsWith('8.8.9.'))).toEqual(['8.8.9.1', '8.8.9.2']);
  });
});
