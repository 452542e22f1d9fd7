import { type DnsblReport, isInformational, type ListResult, trustWords } from '../lists/index.js';
import type { ReverseDns } from './rdns.js';
import {
  type Confidence,
  confidenceThresholds,
  type Score,
  type ScoreFactor,
  type TrustLevel,
  type Verdict,
  verdictThresholds,
} from '../results/index.js';

/**
 * The reputation score: 100 minus what each finding costs, plus what allowlists and good grades
 * add, clamped to 0..100. Lists that could not answer lower the confidence, never the score: an
 * unanswered list is unknown, not a listing. The same findings always give the same score.
 */

export type { Confidence, Score, ScoreFactor, Verdict } from '../results/index.js';

/** Missing or unconfirmed reverse DNS is the first thing large receivers reject on (RFC 8601 iprev). */
export const reverseDnsPenalty = { missingPtr: 10, failedFcrdns: 10 } as const;

/**
 * What an allowlist's vouching adds, by the trust it encodes (DNSWL's scale: `none` only keeps
 * the sender from outright blocking, so it adds nothing).
 */
export const allowlistPoints: Record<TrustLevel, number> = { none: 0, low: 1, medium: 3, high: 5 };
/** The allowlists together add at most a high trust's points: vouching never hides a listing. */
export const maxAllowlistPoints = allowlistPoints.high;

export function listingFactors(report: DnsblReport): ScoreFactor[] {
  const factors: ScoreFactor[] = [...allowlistFactors(report.lists)];
  for (const list of report.lists) {
    if (list.grade && list.grade.points !== 0) {
      factors.push({
        kind: 'grade',
        source: list.name,
        detail: list.grade.label,
        points: list.grade.points,
      });
    }
    if (list.status === 'listed' && list.listings && !list.grade) {
      // A list answering several codes costs its heaviest one once, not each code.
      const heaviest = list.listings.reduce((a, b) => (b.weight > a.weight ? b : a));
      const detail = list.listings.map((listing) => listing.meaning).join('; ');
      factors.push({ kind: 'listing', source: list.name, detail, points: -heaviest.weight });
    }
  }
  return factors;
}

export function reverseDnsFactors(rdns: ReverseDns): ScoreFactor[] {
  if (rdns.fcrdns === 'none') {
    return [
      {
        kind: 'reverse_dns',
        source: 'PTR',
        detail: 'no PTR record',
        points: -reverseDnsPenalty.missingPtr,
      },
    ];
  }
  if (rdns.fcrdns === 'fail') {
    const detail = `no PTR name resolves back to the address (${rdns.ptr})`;
    return [
      { kind: 'reverse_dns', source: 'FCrDNS', detail, points: -reverseDnsPenalty.failedFcrdns },
    ];
  }
  return [];
}

/**
 * Each allowlist that vouches for the target is a factor worth its trust level's points, the most
 * trusting first, until together they reach `maxAllowlistPoints`; the rest are shown at 0. Never
 * negative: an allowlist never lowers the score.
 */
function allowlistFactors(lists: readonly ListResult[]): ScoreFactor[] {
  const vouching = lists
    .filter((list) => list.status === 'allowlisted')
    .map((list) => ({ list, points: allowlistPoints[list.trust ?? 'none'] }))
    .sort((a, b) => b.points - a.points);
  let room = maxAllowlistPoints;
  return vouching.map(({ list, points }) => {
    const added = Math.min(points, room);
    room -= added;
    const meanings = (list.allowlist_entries ?? []).map((entry) => entry.meaning).join('; ');
    return {
      kind: 'allowlist',
      source: list.name,
      detail: `allowlisted (${trustWords(list.trust ?? 'none')})${meanings ? `: ${meanings}` : ''}`,
      points: added,
    };
  });
}

/**
 * The lists a check could have heard from: a list disabled for want of its key is the operator's
 * choice, not a list that failed to answer, so it does not lower the confidence.
 */
export function askableTotal(report: Pick<DnsblReport, 'needs_key' | 'total'>): number {
  return report.total - report.needs_key;
}

/** Share of lists that answered: high, medium from their thresholds, any low, none at all none. */
export function confidenceOf(answered: number, total: number): Confidence {
  if (total === 0 || answered === 0) return 'none';
  const share = answered / total;
  return share >= confidenceThresholds.highFrom
    ? 'high'
    : share >= confidenceThresholds.mediumFrom
      ? 'medium'
      : 'low';
}

/**
 * Verdict (`verdictThresholds`): `poor` under its floor or with any major listing (mail will be
 * refused by many receivers), `good` from its mark with no blocking listing, no poor grade and no
 * broken sender rule (`rulesBroken`, sender-rules.ts), `fair` otherwise; `unknown` when no list
 * answered (docs/score.md).
 */
export function scoreOf(factors: ScoreFactor[], report: DnsblReport, rulesBroken = false): Score {
  return scoreFrom(factors, {
    answered: report.answered,
    total: askableTotal(report),
    majorListed: hasMajorListing(report),
    warned: rulesBroken || hasWarning(report.lists),
  });
}

/**
 * A list blocks the target (a listing that is not for information only) or grades it poorly: the
 * page shows that row as a listing or a poor reputation, so the verdict beside it is never `good`.
 */
export function hasWarning(lists: readonly ListResult[]): boolean {
  return lists.some(
    (list) =>
      (list.status === 'listed' && !isInformational(list)) ||
      (list.grade !== undefined && list.grade.points < 0),
  );
}

export function hasMajorListing(report: DnsblReport): boolean {
  return report.lists.some(
    (list) =>
      list.status === 'listed' && list.listings?.some((listing) => listing.severity === 'major'),
  );
}

/** The score of any set of findings, with how many lists answered and whether a major one lists. */
export function scoreFrom(
  factors: ScoreFactor[],
  coverage: { answered: number; total: number; majorListed: boolean; warned?: boolean },
): Score {
  const sorted = [...factors].sort(
    (a, b) =>
      a.points - b.points ||
      byText(a.source, b.source) ||
      byText(a.kind, b.kind) ||
      byText(a.detail, b.detail),
  );
  const total = sorted.reduce((sum, factor) => sum + factor.points, 100);
  const score = Math.max(0, Math.min(100, total));
  const confidence = confidenceOf(coverage.answered, coverage.total);
  const verdict: Verdict =
    confidence === 'none'
      ? 'unknown'
      : coverage.majorListed || score < verdictThresholds.poorBelow
        ? 'poor'
        : score >= verdictThresholds.goodFrom && !coverage.warned
          ? 'good'
          : 'fair';
  return { score, verdict, confidence, factors: sorted };
}

/** Code-unit order, the same under every locale, so the same findings list in the same order. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
