import { describe, expect, it } from 'vitest';
import type { ListResult } from '../../../src/reputation/lists/dnsbl.js';
import { readAnswer } from '../../../src/reputation/lists/return-codes.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import { reverseDnsFactors, scoreOf } from '../../../src/reputation/checks/score.js';
import {
  brokenRuleScoreCap,
  isPolicyListing,
  ptrBreak,
  senderRuleBreaks,
  senderRulesFactor,
} from '../../../src/reputation/checks/sender-rules.js';
import type { ReverseDns } from '../../../src/reputation/checks/rdns.js';
import type { ScoreFactor } from '../../../src/reputation/results/index.js';
import { listingFactors } from '../../../src/reputation/checks/score.js';

/**
 * The mail requirements' rules one address is judged by alone (docs/score.md#what-receivers-require):
 * no PTR, a PTR that does not confirm forward, a policy listing (read from the zone list's own
 * codes) against a spam listing, and how each holds the IP verdict under `good`.
 */

const zones = await loadZoneList();
const zone = (name: string) => zones.find((entry) => entry.zone === name)!;

/** A list's result for the codes it answered, read by the zone list's code table. */
function answered(name: string, codes: string[]): ListResult {
  const entry = zone(name);
  const reading = readAnswer(entry, codes);
  return {
    zone: entry.zone,
    name: entry.name,
    type: entry.type,
    severity: entry.severity,
    codes,
    ...reading,
  } as ListResult;
}

const clean = (name: string): ListResult => ({ ...answered(name, []), status: 'clean' });

function rdns(fcrdns: ReverseDns['fcrdns'], ptr = ''): ReverseDns {
  return { ptr, names: ptr ? [ptr] : [], fcrdns } as ReverseDns;
}

/** The IP check's score of these findings (src/reputation/checks/ip-check.ts). */
function ipScore(reverse: ReverseDns, lists: ListResult[]) {
  const report = {
    lists,
    listed: lists.filter((list) => list.status === 'listed').length,
    allowlisted: 0,
    answered: lists.length,
    not_answered: 0,
    on_hold: 0,
    disabled: 0,
    needs_key: 0,
    not_covered: 0,
    total: lists.length,
  };
  const factors: ScoreFactor[] = [...listingFactors(report), ...reverseDnsFactors(reverse)];
  const broken = senderRuleBreaks(reverse, lists);
  const held = senderRulesFactor(factors, broken);
  return scoreOf(held ? [...factors, held] : factors, report, broken.length > 0);
}

const unlisted = [clean('zen.spamhaus.org'), clean('bl.spamcop.net')];

describe('the ptr rule', () => {
  it('breaks without a PTR record: good at 90 becomes fair at 79', () => {
    expect(ptrBreak(rdns('none'))).toEqual({ rule: 'ptr', finding: 'no_ptr' });
    const score = ipScore(rdns('none'), unlisted);
    expect(score).toMatchObject({ score: brokenRuleScoreCap, verdict: 'fair' });
    expect(score.factors[0]).toEqual({
      kind: 'requirement',
      source: 'Mail requirements',
      detail: 'held under 80, not a good mail sender: no PTR record',
      points: -11,
    });
  });

  it('breaks with a PTR that does not resolve back (FCrDNS)', () => {
    expect(ptrBreak(rdns('fail', 'host-5.dsl.example'))).toEqual({
      rule: 'ptr',
      finding: 'fcrdns_fail',
      ptr: 'host-5.dsl.example',
    });
    const score = ipScore(rdns('fail', 'host-5.dsl.example'), unlisted);
    expect(score).toMatchObject({ score: 79, verdict: 'fair' });
    expect(score.factors[0]!.detail).toBe(
      'held under 80, not a good mail sender: PTR not confirmed forward (FCrDNS)',
    );
  });

  it('holds with a forward-confirmed PTR, and when reverse DNS did not answer (not known)', () => {
    expect(ptrBreak(rdns('pass', 'mail.example.net'))).toBeUndefined();
    expect(ptrBreak(rdns('error'))).toBeUndefined();
    expect(ipScore(rdns('pass', 'mail.example.net'), unlisted)).toMatchObject({
      score: 100,
      verdict: 'good',
    });
  });

  it('adds no hold to a score already under the cap', () => {
    const spam = answered('bl.spamcop.net', ['127.0.0.2']);
    const score = ipScore(rdns('none'), [clean('zen.spamhaus.org'), spam]);
    expect(score.score).toBe(60);
    expect(score.factors.some((factor) => factor.kind === 'requirement')).toBe(false);
    expect(score.verdict).toBe('poor');
  });
});

describe('the listing rule: a policy listing against a spam listing', () => {
  it('reads Spamhaus PBL, Abusix policy and SPFBL “unfit” codes as policy listings', () => {
    for (const [name, code] of [
      ['zen.spamhaus.org', '127.0.0.10'],
      ['zen.spamhaus.org', '127.0.0.11'],
      ['combined.mail.abusix.zone', '127.0.0.11'],
      ['combined.mail.abusix.zone', '127.0.0.12'],
      ['dnsbl.spfbl.net', '127.0.0.4'],
    ] as const) {
      const list = answered(name, [code]);
      expect(list.status, `${name} ${code}`).toBe('listed');
      expect(list.listings![0]!.policy, `${name} ${code}`).toBe(true);
      expect(isPolicyListing(list)).toBe(true);
    }
  });

  it('never reads a spam listing as policy: SBL, XBL, SpamCop, SpamRATS-NoPtr', () => {
    for (const [name, code] of [
      ['zen.spamhaus.org', '127.0.0.2'],
      ['zen.spamhaus.org', '127.0.0.4'],
      ['bl.spamcop.net', '127.0.0.2'],
      ['all.spamrats.com', '127.0.0.37'],
    ] as const) {
      const list = answered(name, [code]);
      expect(list.listings![0]!.policy, `${name} ${code}`).toBeUndefined();
      expect(isPolicyListing(list)).toBe(false);
    }
  });

  it('holds a forward-confirmed address on PBL at fair: 95 becomes 79', () => {
    const pbl = answered('zen.spamhaus.org', ['127.0.0.10']);
    expect(senderRuleBreaks(rdns('pass', 'mail.example.net'), [pbl])).toEqual([
      { rule: 'listing', finding: 'policy_listing', list: 'Spamhaus ZEN' },
    ]);
    const score = ipScore(rdns('pass', 'mail.example.net'), [pbl, clean('bl.spamcop.net')]);
    expect(score).toMatchObject({ score: 79, verdict: 'fair' });
    expect(score.factors.map((factor) => [factor.kind, factor.points])).toEqual([
      ['requirement', -16],
      ['listing', -5],
    ]);
  });

  it('leaves a spam listing to the listing weights and verdict rules, with no policy hold', () => {
    const spamcop = answered('bl.spamcop.net', ['127.0.0.2']);
    expect(senderRuleBreaks(rdns('pass', 'mail.example.net'), [spamcop])).toEqual([]);
    const score = ipScore(rdns('pass', 'mail.example.net'), [clean('zen.spamhaus.org'), spamcop]);
    expect(score).toMatchObject({ score: 70, verdict: 'poor' });
    expect(score.factors.map((factor) => factor.kind)).toEqual(['listing']);
  });

  it('names every broken rule in one hold', () => {
    const pbl = answered('zen.spamhaus.org', ['127.0.0.10']);
    const score = ipScore(rdns('none'), [pbl]);
    expect(score.score).toBe(79);
    expect(score.factors.find((factor) => factor.kind === 'requirement')?.detail).toBe(
      'held under 80, not a good mail sender: no PTR record; policy listing on Spamhaus ZEN',
    );
  });
});
