import { type ListResult, type ScoreFactor, verdictThresholds } from '../results/index.js';
import type { ReverseDns } from './rdns.js';

/**
 * The mailbox providers' rules one address can be judged by alone: `ptr` (reverse DNS that
 * confirms forward) and the policy side of `listing` (an address a list says should not send mail
 * directly). The mail check's `ptr` and `listing` rules (src/reputation/mail/requirement-rules.ts)
 * and the IP check's verdict both read an address by these, so the two tools never disagree about
 * one (docs/mail.md, docs/score.md#what-receivers-require).
 */

export type SenderRuleBreak =
  | { rule: 'ptr'; finding: 'no_ptr' }
  | { rule: 'ptr'; finding: 'fcrdns_fail'; ptr: string }
  | { rule: 'listing'; finding: 'policy_listing'; list: string };

/**
 * No PTR, or a PTR that does not resolve back to the address (FCrDNS, RFC 8601 §3 `iprev`):
 * Gmail refuses mail from an address without PTR and asks for forward confirmation, Yahoo asks
 * for valid forward and reverse DNS. An answer that did not come (`error`) breaks nothing: it is
 * not known.
 */
export function ptrBreak(rdns: Pick<ReverseDns, 'fcrdns' | 'ptr'>): SenderRuleBreak | undefined {
  if (rdns.fcrdns === 'none') return { rule: 'ptr', finding: 'no_ptr' };
  if (rdns.fcrdns === 'fail') return { rule: 'ptr', finding: 'fcrdns_fail', ptr: rdns.ptr ?? '' };
  return undefined;
}

/** Whether a list lists the address for policy (Spamhaus PBL and its kin: the zone list's `kind`). */
export function isPolicyListing(list: Pick<ListResult, 'status' | 'listings'>): boolean {
  return list.status === 'listed' && (list.listings ?? []).some((listing) => listing.policy);
}

/**
 * A policy listing: the list says the address should not send mail directly but through its
 * provider's relay; receivers that use the list (ZEN includes PBL) refuse its direct mail.
 */
export function policyBreaks(lists: readonly ListResult[]): SenderRuleBreak[] {
  return lists
    .filter(isPolicyListing)
    .map((list) => ({ rule: 'listing', finding: 'policy_listing', list: list.name }));
}

export function senderRuleBreaks(
  rdns: Pick<ReverseDns, 'fcrdns' | 'ptr'>,
  lists: readonly ListResult[],
): SenderRuleBreak[] {
  const ptr = ptrBreak(rdns);
  return [...(ptr ? [ptr] : []), ...policyBreaks(lists)];
}

/** The highest score of an address that breaks a rule: one under the `good` verdict's mark. */
export const brokenRuleScoreCap = verdictThresholds.goodFrom - 1;

function reasonOf(broken: SenderRuleBreak): string {
  if (broken.finding === 'no_ptr') return 'no PTR record';
  if (broken.finding === 'fcrdns_fail') return 'PTR not confirmed forward (FCrDNS)';
  return `policy listing on ${broken.list}`;
}

/**
 * What holds the score of an address that breaks a rule at `brokenRuleScoreCap`: the points
 * between what the other findings left and the cap, so the factors still add up to the score.
 * Nothing when the score is already under the cap or no rule is broken.
 */
export function senderRulesFactor(
  factors: readonly ScoreFactor[],
  broken: readonly SenderRuleBreak[],
): ScoreFactor | undefined {
  if (broken.length === 0) return undefined;
  const score = Math.min(
    100,
    factors.reduce((sum, factor) => sum + factor.points, 100),
  );
  if (score <= brokenRuleScoreCap) return undefined;
  return {
    kind: 'requirement',
    source: 'Mail requirements',
    detail: `held under ${brokenRuleScoreCap + 1}, not a good mail sender: ${broken.map(reasonOf).join('; ')}`,
    points: brokenRuleScoreCap - score,
  };
}
