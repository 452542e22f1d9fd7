import { describe, expect, it } from 'vitest';
import {
  countsOf,
  type DnsblReport,
  type ListResult,
  type ListStatus,
} from '../../../src/reputation/lists/dnsbl.js';
import type { ReverseDns } from '../../../src/reputation/checks/rdns.js';
import type { Listing } from '../../../src/reputation/lists/return-codes.js';
import {
  confidenceOf,
  listingFactors,
  reverseDnsFactors,
  reverseDnsPenalty,
  type Score,
  scoreOf,
} from '../../../src/reputation/checks/score.js';

/** One list's result, as the engine reports it. */
function list(
  name: string,
  status: ListStatus,
  extra: Partial<Pick<ListResult, 'listings' | 'grade' | 'trust' | 'allowlist_entries'>> = {},
): ListResult {
  return {
    zone: `${name.toLowerCase().replace(/\W+/g, '-')}.example`,
    name,
    type: 'ip',
    severity: 'minor',
    status,
    ...extra,
  };
}

function listing(
  meaning: string,
  weight: number,
  severity: Listing['severity'] = 'minor',
): Listing {
  return { code: '127.0.0.2', meaning, severity, weight };
}

function report(lists: ListResult[]): DnsblReport {
  return { lists, ...countsOf(lists) };
}

const cleanLists = (count: number) =>
  Array.from({ length: count }, (_, i) => list(`Clean list ${i}`, 'clean'));

const confirmed: ReverseDns = {
  ptr: 'mail.example.net',
  names: ['mail.example.net'],
  fcrdns: 'pass',
  confirmed: ['mail.example.net'],
};
const noPtr: ReverseDns = { ptr: '', names: [], fcrdns: 'none', confirmed: [] };
const unconfirmed: ReverseDns = {
  ptr: 'host.example.net',
  names: ['host.example.net'],
  fcrdns: 'fail',
  confirmed: [],
};
const rdnsError: ReverseDns = {
  ptr: '',
  names: [],
  fcrdns: 'error',
  confirmed: [],
  error: 'no PTR answer in time',
};

/** The score of a check exactly as ip-check.ts computes it. */
function scoreCheck(dnsbl: DnsblReport, rdns: ReverseDns = confirmed): Score {
  return scoreOf([...listingFactors(dnsbl), ...reverseDnsFactors(rdns)], dnsbl);
}

const zen = (code: string, meaning: string, severity: Listing['severity'], weight: number) =>
  list('Spamhaus ZEN', 'listed', { listings: [{ code, meaning, severity, weight }] });

describe('the score', () => {
  it('is 100 and good for a clean address with confirmed reverse DNS', () => {
    expect(scoreCheck(report(cleanLists(20)))).toEqual({
      score: 100,
      verdict: 'good',
      confidence: 'high',
      factors: [],
    });
  });

  it('is the same for the same findings, whatever order they come in', () => {
    const lists = [
      zen('127.0.0.10', 'PBL', 'info', 5),
      list('SpamCop', 'listed', { listings: [listing('reported spam', 30, 'major')] }),
      list('Sender Score', 'clean', {
        grade: { label: 'Sender Score 60', points: -10, listed: false },
      }),
      list('DNSWL', 'clean', {
        grade: { label: 'allowlisted, trust low', points: 1, listed: false },
      }),
      list('Mailspike', 'listed', { listings: [listing('L3', 10)] }),
      list('SEM', 'listed', { listings: [listing('trap hits', 10)] }),
      ...cleanLists(10),
    ];
    const first = scoreCheck(report(lists), unconfirmed);
    const again = scoreCheck(report(lists), unconfirmed);
    const reversed = scoreCheck(report([...lists].reverse()), unconfirmed);
    const rotated = scoreCheck(report([...lists.slice(3), ...lists.slice(0, 3)]), unconfirmed);
    expect(again).toEqual(first);
    expect(reversed).toEqual(first);
    expect(rotated).toEqual(first);
    // Heaviest first, then by source name: ties read alphabetically.
    expect(first.factors.map((factor) => [factor.source, factor.points])).toEqual([
      ['SpamCop', -30],
      ['FCrDNS', -10],
      ['Mailspike', -10],
      ['SEM', -10],
      ['Sender Score', -10],
      ['Spamhaus ZEN', -5],
      ['DNSWL', 1],
    ]);
    expect(first.score).toBe(100 - 30 - 10 - 10 - 10 - 10 - 5 + 1);
  });

  it('is poor with a major listing even when the points alone would be fair', () => {
    const score = scoreCheck(
      report([zen('127.0.0.2', 'SBL: direct spam source', 'major', 40), ...cleanLists(19)]),
    );
    expect(score.score).toBe(60);
    expect(score.verdict).toBe('poor');
    expect(score.factors).toEqual([
      { kind: 'listing', source: 'Spamhaus ZEN', detail: 'SBL: direct spam source', points: -40 },
    ]);
  });

  it('is fair, not good, beside a blocking listing that costs few points', () => {
    const minor = list('PSBL', 'listed', { listings: [listing('listed', 10)] });
    expect(scoreCheck(report([minor, ...cleanLists(19)]))).toMatchObject({
      score: 90,
      verdict: 'fair',
    });
  });

  it('is fair, not good, beside a grade that costs points', () => {
    const grade = { label: 'poor reputation L4', points: -15, listed: false };
    const mailspike = list('Mailspike Reputation', 'clean', { grade });
    expect(scoreCheck(report([mailspike, ...cleanLists(19)]))).toMatchObject({
      score: 85,
      verdict: 'fair',
    });
  });

  it('weighs a PBL listing as information: a few points, not a poor verdict', () => {
    const score = scoreCheck(
      report([zen('127.0.0.10', 'PBL (ISP)', 'info', 5), ...cleanLists(19)]),
    );
    expect(score).toMatchObject({ score: 95, verdict: 'good' });
    expect(score.factors).toEqual([
      { kind: 'listing', source: 'Spamhaus ZEN', detail: 'PBL (ISP)', points: -5 },
    ]);
  });

  it('costs a list answering several codes its heaviest code once', () => {
    const score = scoreCheck(
      report([
        list('Spamhaus ZEN', 'listed', {
          listings: [
            { code: '127.0.0.4', meaning: 'XBL', severity: 'major', weight: 40 },
            { code: '127.0.0.10', meaning: 'PBL', severity: 'info', weight: 5 },
          ],
        }),
        ...cleanLists(19),
      ]),
    );
    expect(score.factors).toEqual([
      { kind: 'listing', source: 'Spamhaus ZEN', detail: 'XBL; PBL', points: -40 },
    ]);
    expect(score.score).toBe(60);
  });

  it('is fair between 50 and 80 without a major listing', () => {
    const lists = [
      list('SpamCop', 'listed', { listings: [listing('reported spam', 15)] }),
      list('SEM', 'listed', { listings: [listing('trap hits', 10)] }),
      ...cleanLists(18),
    ];
    expect(scoreCheck(report(lists))).toMatchObject({ score: 75, verdict: 'fair' });
  });

  it('is poor under 50 and never below 0', () => {
    const lists = Array.from({ length: 8 }, (_, i) =>
      list(`List ${i}`, 'listed', { listings: [listing('listed', 15)] }),
    );
    expect(scoreCheck(report(lists), noPtr)).toMatchObject({ score: 0, verdict: 'poor' });
  });

  it('adds and takes off the points of graded lists, without counting them as listings', () => {
    const score = scoreCheck(
      report([
        list('Validity Sender Score', 'clean', {
          grade: { label: 'Sender Score 45', points: -20, listed: false },
        }),
        list('Mailspike Reputation', 'clean', {
          grade: { label: 'poor reputation L4', points: -15, listed: false },
        }),
        list('Neutral', 'clean', {
          grade: { label: 'neutral reputation', points: 0, listed: false },
        }),
        ...cleanLists(17),
      ]),
    );
    expect(score.factors).toEqual([
      { kind: 'grade', source: 'Validity Sender Score', detail: 'Sender Score 45', points: -20 },
      { kind: 'grade', source: 'Mailspike Reputation', detail: 'poor reputation L4', points: -15 },
    ]);
    expect(score).toMatchObject({ score: 65, verdict: 'fair' });
  });

  it('counts HostKarma black by its grade, once, not also as a listing', () => {
    const score = scoreCheck(
      report([
        list('HostKarma', 'listed', {
          listings: [listing('black (spam source)', 0, 'info')],
          grade: { label: 'black (spam source)', points: -20, listed: true },
        }),
        ...cleanLists(19),
      ]),
    );
    expect(score.factors).toEqual([
      { kind: 'grade', source: 'HostKarma', detail: 'black (spam source)', points: -20 },
    ]);
    expect(score.score).toBe(80);
  });

  it('never rises above 100 with allowlist points', () => {
    const score = scoreCheck(
      report([list('DNSWL', 'allowlisted', { trust: 'high' }), ...cleanLists(19)]),
    );
    expect(score.score).toBe(100);
    expect(score.factors).toEqual([
      { kind: 'allowlist', source: 'DNSWL', detail: 'allowlisted (high trust)', points: 5 },
    ]);
  });

  it('adds each allowlist by its trust, at most 5 together, never lowering the score or counting a listing', () => {
    const score = scoreCheck(
      report([
        list('Blocklist', 'listed', { listings: [listing('spam', 30)] }),
        list('Mailspike Whitelist', 'allowlisted', {
          trust: 'medium',
          allowlist_entries: [{ code: '127.0.0.19', meaning: 'H4', trust: 'medium' }],
        }),
        list('SPFBL DNSWL', 'allowlisted', { trust: 'medium' }),
        list('IADB', 'allowlisted', { trust: 'none' }),
        ...cleanLists(17),
      ]),
    );
    expect(score.factors).toEqual([
      { kind: 'listing', source: 'Blocklist', detail: 'spam', points: -30 },
      { kind: 'allowlist', source: 'IADB', detail: 'allowlisted (minimal trust)', points: 0 },
      { kind: 'allowlist', source: 'SPFBL DNSWL', detail: 'allowlisted (medium trust)', points: 2 },
      {
        kind: 'allowlist',
        source: 'Mailspike Whitelist',
        detail: 'allowlisted (medium trust): H4',
        points: 3,
      },
    ]);
    expect(score.score).toBe(75);
    expect(score.confidence).toBe('high');
  });

  it('leaves the lists waiting for a key out of the confidence, counted as disabled', () => {
    const waiting = (name: string) => ({
      ...list(name, 'disabled'),
      key: 'ABUSIX_KEY',
      error: 'set ABUSIX_KEY',
    });
    const checked = report([...cleanLists(9), waiting('Abusix'), waiting('Abusix domains')]);
    expect(checked).toMatchObject({ disabled: 2, total: 11, answered: 9 });
    expect(scoreCheck(checked).confidence).toBe('high');
    expect(confidenceOf(9, 11)).toBe('medium');
  });

  it('takes points off for a missing PTR', () => {
    const score = scoreCheck(report(cleanLists(20)), noPtr);
    expect(score.score).toBe(100 - reverseDnsPenalty.missingPtr);
    expect(score.factors).toEqual([
      { kind: 'reverse_dns', source: 'PTR', detail: 'no PTR record', points: -10 },
    ]);
  });

  it('takes points off for a PTR name that does not resolve back, naming it', () => {
    const score = scoreCheck(report(cleanLists(20)), unconfirmed);
    expect(score.score).toBe(100 - reverseDnsPenalty.failedFcrdns);
    expect(score.factors).toEqual([
      {
        kind: 'reverse_dns',
        source: 'FCrDNS',
        detail: 'no PTR name resolves back to the address (host.example.net)',
        points: -10,
      },
    ]);
  });

  it('takes nothing off when reverse DNS could not be looked up', () => {
    expect(scoreCheck(report(cleanLists(20)), rdnsError)).toMatchObject({
      score: 100,
      factors: [],
    });
  });

  it.each([
    ['timeout', 'medium'],
    ['error', 'medium'],
  ] as const)('lowers the confidence, not the score, for lists that %s', (status, confidence) => {
    const lists = [
      ...cleanLists(14),
      ...Array.from({ length: 6 }, (_, i) => list(`Broken ${i}`, status)),
    ];
    expect(scoreCheck(report(lists))).toEqual({
      score: 100,
      verdict: 'good',
      confidence,
      factors: [],
    });
  });

  it('keeps a listing counted when other lists did not answer', () => {
    const lists = [
      zen('127.0.0.2', 'SBL', 'major', 40),
      ...Array.from({ length: 19 }, (_, i) => list(`Slow ${i}`, 'timeout')),
    ];
    expect(scoreCheck(report(lists))).toMatchObject({
      score: 60,
      verdict: 'poor',
      confidence: 'low',
    });
  });

  it('is unknown with no confidence when no list answered', () => {
    const lists = Array.from({ length: 20 }, (_, i) =>
      list(`List ${i}`, i % 2 ? 'timeout' : 'error'),
    );
    expect(scoreCheck(report(lists), rdnsError)).toEqual({
      score: 100,
      verdict: 'unknown',
      confidence: 'none',
      factors: [],
    });
  });

  it('is unknown when every list is disabled', () => {
    const lists = Array.from({ length: 5 }, (_, i) => list(`List ${i}`, 'disabled'));
    expect(scoreCheck(report(lists))).toMatchObject({ verdict: 'unknown', confidence: 'none' });
  });
});

describe('confidenceOf', () => {
  it.each([
    [20, 20, 'high'],
    [18, 20, 'high'],
    [17, 20, 'medium'],
    [12, 20, 'medium'],
    [11, 20, 'low'],
    [1, 20, 'low'],
    [0, 20, 'none'],
    [0, 0, 'none'],
  ] as const)('is %i of %i answered: %s', (answered, total, confidence) => {
    expect(confidenceOf(answered, total)).toBe(confidence);
  });
});
