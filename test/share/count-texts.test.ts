import { describe, expect, it } from 'vitest';
import { describeCoverage } from '../../src/reputation/lists/coverage.js';
import { coverageLine } from '../../src/share/card-layout.js';
import { ringFigures } from '../../src/share/card-ring.js';
import { translator } from '../../src/i18n/index.js';
import { sentenceOf as sentenceIn } from '../../src/share/count-texts.js';
import type { ShareSummary } from '../../src/share/summary.js';
import { coverageWith, ipv6Coverage, longestIpv6, summaryFor } from './fixtures.js';

/** The words of the share page and card: every list counted, informational entries apart. */

const sentenceOf = (summary: ShareSummary) => sentenceIn(summary, translator('en'));

const coverage = coverageWith({
  blocking: 2,
  answered: 16,
  not_answered: 2,
  on_hold: 1,
  disabled: 1,
  total: 20,
});

describe('the share page sentence', () => {
  it('counts the lists that answered, did not, are on hold or disabled', () => {
    const summary = summaryFor('ip', { listed: 2, checked: 16, coverage });
    expect(sentenceOf(summary)).toBe(
      '203.0.113.7: poor, score 61/100; listed on 2 of 16 lists that answered; 2 did not answer; 1 on hold; 1 disabled.',
    );
  });

  it('reads an informational listing as information beside a good verdict', () => {
    const summary = summaryFor('ip', {
      verdict: 'good',
      score: 95,
      listed: 0,
      checked: 18,
      coverage: {
        ...coverage,
        blocking: 0,
        informational: 1,
        answered: 18,
        not_answered: 0,
        on_hold: 0,
        disabled: 0,
        total: 18,
      },
    });
    expect(sentenceOf(summary)).toBe(
      '203.0.113.7: good, score 95/100; not listed on any of 18 lists; 1 lists it for information only.',
    );
  });

  it('says how many sender IPs of a domain are listed', () => {
    const summary = summaryFor('domain', {
      listed: 0,
      checked: 5,
      coverage: {
        ...coverage,
        blocking: 0,
        answered: 5,
        not_answered: 0,
        on_hold: 0,
        disabled: 0,
        total: 5,
      },
    });
    expect(sentenceOf(summary)).toBe(
      'example.com: fair, score 80/100; not listed on any of 5 lists; 1 of 4 sender IPs listed.',
    );
  });

  it('counts a pool’s listed addresses and the lists that did not answer', () => {
    const summary = summaryFor('pool', { coverage: { ...coverage, blocking: 0 } });
    expect(sentenceOf(summary)).toBe(
      'mx.example.net: fair; 1 of 16 addresses listed; lists: 2 did not answer, 1 on hold, 1 disabled.',
    );
  });
});

const ipv6Summary = summaryFor('ip', {
  target: longestIpv6,
  verdict: 'good',
  score: 100,
  listed: 0,
  checked: 2,
  listings: [],
  coverage: ipv6Coverage,
});

describe('the counts of an IPv6 address', () => {
  it('count the lists that do not cover IPv6 apart, in the JSON summary’s words', () => {
    expect(sentenceOf(ipv6Summary)).toBe(
      `${longestIpv6}: good, score 100/100; not listed on any of 2 lists; 16 do not cover IPv6.`,
    );
    expect(sentenceOf(ipv6Summary)).toContain(describeCoverage(ipv6Coverage));
    expect(sentenceOf(summaryFor('ip', { coverage: { ...ipv6Coverage, not_covered: 1 } }))).toMatch(
      /; 1 does not cover IPv6\.$/,
    );
  });

  it('say the same in Russian, with Russian plural forms', () => {
    const ru = translator('ru');
    expect(sentenceIn(ipv6Summary, ru)).toContain(
      'не внесён ни в один из 2 списков; 16 не поддерживают IPv6.',
    );
    const one = summaryFor('ip', { coverage: { ...ipv6Coverage, not_covered: 21 } });
    expect(sentenceIn(one, ru)).toMatch(/; 21 не поддерживает IPv6\.$/);
  });

  it('name them among a pool’s lists', () => {
    const pool = summaryFor('pool', { coverage: ipv6Coverage });
    expect(sentenceOf(pool)).toBe(
      'mx.example.net: fair; 1 of 16 addresses listed; lists: 16 do not cover IPv6.',
    );
  });

  it('go under the card’s headline in both languages', () => {
    expect(coverageLine(ipv6Summary)).toBe('All 2 lists answered · 16 do not cover IPv6');
    expect(coverageLine(ipv6Summary, translator('ru'))).toBe(
      'Ответили все 2 списка · 16 не поддерживают IPv6',
    );
  });
});

describe('the card', () => {
  it('says under the headline how many lists answered', () => {
    expect(coverageLine(summaryFor('ip', { coverage }))).toBe(
      '16 of 20 lists answered · 2 did not answer · 1 on hold · 1 disabled',
    );
    expect(
      coverageLine(
        summaryFor('ip', {
          coverage: {
            ...coverage,
            answered: 20,
            not_answered: 0,
            on_hold: 0,
            disabled: 0,
            informational: 1,
          },
        }),
      ),
    ).toBe('All 20 lists answered · 1 informational entry');
  });

  it('fills the pool ring with the listed share, not the clean share', () => {
    expect(ringFigures(summaryFor('pool', { listed: 1, checked: 4 }))).toEqual({
      fraction: 0.25,
      figure: '1/4',
      caption: 'listed',
    });
    expect(ringFigures(summaryFor('pool', { listed: 0, checked: 4 })).fraction).toBe(0);
  });

  it('shows the mail score in the ring of a mail check and a mail watch, which count no lists', () => {
    for (const tool of ['mail', 'watch']) {
      const summary = {
        ...summaryFor('domain', { listed: 0, checked: 0, listings: [], score: 72 }),
        tool,
        counts: 'requirements' as const,
      };
      expect(ringFigures(summary)).toEqual({ fraction: 0.72, figure: '72', caption: 'out of 100' });
    }
    expect(ringFigures(summaryFor('ip', { listed: 0, checked: 0 })).figure).toBe('–');
  });
});
