import { describe, expect, it } from 'vitest';
import {
  type AddressSummary,
  describeAddressLine,
} from '../../../src/reputation/checks/address-summary.js';
import {
  type ListCoverage,
  coverageOf,
  describeCoverage,
} from '../../../src/reputation/lists/coverage.js';
import type { ListResult, ListStatus } from '../../../src/reputation/lists/dnsbl.js';
import type { Severity } from '../../../src/reputation/results/result-schemas.js';

function list(status: ListStatus, severity: Severity = 'major', extra: Partial<ListResult> = {}) {
  return {
    zone: `z${Math.random()}`,
    name: 'L',
    type: 'ip',
    severity,
    status,
    ...extra,
  } as ListResult;
}

const coverage = (counts: Partial<ListCoverage>): ListCoverage => ({
  blocking: 0,
  informational: 0,
  answered: 18,
  not_answered: 0,
  on_hold: 0,
  disabled: 0,
  total: 18,
  ...counts,
});

describe('coverageOf', () => {
  it('counts each list once: listed or clean answered, on hold, disabled, and the rest not answered', () => {
    const pbl = { code: '127.0.0.10', meaning: 'PBL', severity: 'info' as const, weight: 5 };
    const sbl = { code: '127.0.0.2', meaning: 'SBL', severity: 'major' as const, weight: 40 };
    const lists = [
      list('listed', 'major', { listings: [sbl, pbl] }),
      list('listed', 'major', { listings: [pbl] }),
      list('clean'),
      list('timeout'),
      list('error'),
      list('timeout', 'minor', { on_hold: true }),
      list('disabled'),
    ];
    expect(coverageOf(lists)).toEqual({
      blocking: 1,
      informational: 1,
      answered: 3,
      not_answered: 2,
      on_hold: 1,
      disabled: 1,
      needs_key: 0,
      not_covered: 0,
      total: 7,
      allowlists: [],
    });
  });

  it('counts an allowlist that vouches as answered, never as listed, and names it, the most trusting first', () => {
    const lists = [
      list('clean'),
      list('allowlisted', 'info', { name: 'Mailspike Whitelist', trust: 'low' }),
      list('allowlisted', 'info', { name: 'DNSWL.org', trust: 'high' }),
    ];
    expect(coverageOf(lists)).toMatchObject({
      blocking: 0,
      informational: 0,
      answered: 3,
      total: 3,
      allowlists: [
        { name: 'DNSWL.org', trust: 'high' },
        { name: 'Mailspike Whitelist', trust: 'low' },
      ],
    });
    expect(describeCoverage(coverageOf(lists))).toBe(
      'not listed on any of 3 lists; allowlisted on DNSWL.org (high trust) and Mailspike Whitelist (low trust)',
    );
  });

  it('counts a list that does not cover IPv6 apart, outside the total, never as clean or disabled', () => {
    const lists = [
      list('clean'),
      list('disabled', 'major', { not_covered: true, error: 'does not cover IPv6' }),
      list('disabled', 'minor', { not_covered: true, error: 'does not cover IPv6' }),
      list('disabled'),
    ];
    expect(coverageOf(lists)).toMatchObject({
      answered: 1,
      disabled: 1,
      not_covered: 2,
      total: 2,
    });
  });
});

describe('describeCoverage', () => {
  it.each<[string, Partial<ListCoverage>, string]>([
    ['every list answered, none lists', {}, 'not listed on any of 18 lists'],
    ['listed, every list answered', { blocking: 2 }, 'listed on 2 of 18 lists'],
    [
      'listed, with lists that did not answer',
      { blocking: 2, answered: 16, not_answered: 2 },
      'listed on 2 of 16 lists that answered; 2 did not answer',
    ],
    [
      'lists on hold and disabled',
      { answered: 14, not_answered: 1, on_hold: 2, disabled: 1 },
      'not listed on any of 14 lists that answered; 1 did not answer; 2 on hold; 1 disabled',
    ],
    [
      'an informational listing only',
      { informational: 1 },
      'not listed on any of 18 lists; 1 lists it for information only',
    ],
    ['no list answered', { answered: 0, on_hold: 18 }, 'no list answered; 18 on hold'],
    [
      'lists waiting for a key, every other list answered',
      { answered: 16, disabled: 2, needs_key: 2 },
      'not listed on any of 16 lists; 2 need a key',
    ],
    [
      'lists waiting for a key beside a disabled one',
      { answered: 15, disabled: 3, needs_key: 2 },
      'not listed on any of 15 lists that answered; 1 disabled; 2 need a key',
    ],
    [
      'an allowlist that vouches with minimal trust',
      { allowlists: [{ zone: 'list.dnswl.org', name: 'DNSWL.org', trust: 'none' }] },
      'not listed on any of 18 lists; allowlisted on DNSWL.org (minimal trust)',
    ],
    [
      'three allowlists beside a listing',
      {
        blocking: 1,
        allowlists: [
          { zone: 'a', name: 'A', trust: 'high' },
          { zone: 'b', name: 'B', trust: 'medium' },
          { zone: 'c', name: 'C', trust: 'low' },
        ],
      },
      'listed on 1 of 18 lists; allowlisted on A (high trust) and 2 more',
    ],
    [
      'an IPv6 address, most lists not covering IPv6',
      { answered: 2, total: 2, not_covered: 16 },
      'not listed on any of 2 lists; 16 do not cover IPv6',
    ],
    [
      'an IPv6 address listed, one list not covering IPv6',
      { blocking: 1, answered: 2, total: 3, not_answered: 1, not_covered: 1 },
      'listed on 1 of 2 lists that answered; 1 did not answer; 1 does not cover IPv6',
    ],
  ])('%s', (_, counts, sentence) => {
    expect(describeCoverage(coverage(counts))).toBe(sentence);
  });
});

describe('describeAddressLine', () => {
  const address = (overrides: Partial<AddressSummary>): AddressSummary => ({
    ip: '192.0.3.8',
    score: 100,
    verdict: 'good',
    confidence: 'high',
    listed: 0,
    allowlisted: 0,
    answered: 18,
    not_answered: 0,
    on_hold: 0,
    disabled: 0,
    needs_key: 0,
    not_covered: 0,
    total: 18,
    summary: 'not listed on any of 18 lists',
    listings: [],
    unanswered: [],
    ...overrides,
  });

  it('names the blocking lists with their short codes and counts what did not answer', () => {
    const line = describeAddressLine(
      address({
        listed: 3,
        answered: 16,
        not_answered: 1,
        on_hold: 1,
        listings: [
          { zone: 'zen.spamhaus.org', name: 'ZEN', severity: 'major', detail: 'SBL: spam' },
          { zone: 'bl.spamcop.net', name: 'SpamCop', severity: 'major', detail: 'listed: x' },
          { zone: 'all.spamrats.com', name: 'RATS', severity: 'info', detail: 'RATS-Dyna: d' },
        ],
      }),
    );
    expect(line).toBe(
      '192.0.3.8: listed on 2 of 16 lists that answered: zen.spamhaus.org (SBL), bl.spamcop.net; 1 more for information only; 1 did not answer; 1 on hold',
    );
  });

  it('counts the lists that do not cover an IPv6 address after the listing', () => {
    const line = describeAddressLine(
      address({
        ip: '2a00:1450:4001:80b::200e',
        listed: 1,
        answered: 2,
        total: 2,
        not_covered: 16,
        listings: [{ zone: 'zen.spamhaus.org', name: 'ZEN', severity: 'major', detail: 'CSS: x' }],
      }),
    );
    expect(line).toBe(
      '2a00:1450:4001:80b::200e: listed on 1 of 2 lists: zen.spamhaus.org (CSS); 16 do not cover IPv6',
    );
  });

  it('says the summary as it is for an address no list blocklists', () => {
    expect(describeAddressLine(address({}))).toBe('192.0.3.8: not listed on any of 18 lists');
  });
});
