import { type DnsblReport, isInformational, type ListResult } from '../lists/index.js';
import type { ReverseDns } from './rdns.js';
import type { Confidence, Score, ScoreFactor, Verdict } from '../results/index.js';

/**
 * The reputation score: 100 minus what each finding costs, plus what allowlists and good grades
 * add, clamped to 0..100. Lists that could not answer lower the confidence, never the score: an
 * unanswered list is unknown, not a listing. The same findings always give the same score.
 */

export type { Confidence, Score, ScoreFactor, Verdict } from '../results/index.js';

/** Missing or unconfirmed reverse DNS is the first thing large receivers reject on (RFC 8601 iprev). */
export const reverseDnsPenalty = { missingPtr: 10, failedFcrdns: 10 } as const;

export function listingFactors(report: DnsblReport): ScoreFactor[] {
  const factors: ScoreFactor[] = [];
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

/** Share of lists that answered: at least 90% high, 60% medium, any low, none at all none. */
export function confidenceOf(answered: number, total: number): Confidence {
  if (total === 0 || answered === 0) return 'none';
  const share = answered / total;
  return share >= 0.9 ? 'high' : share >= 0.6 ? 'medium' : 'low';
}

/**
 * Verdict: `poor` under 50 or with any major listing (mail will be refused by many receivers),
 * `good` from 80 with no blocking listing and no poor grade, `fair` otherwise; `unknown` when no
 * list answered (docs/score.md).
 */
export function scoreOf(factors: ScoreFactor[], report: DnsblReport): Score {
  return scoreFrom(factors, {
    answered: report.answered,
    total: report.total,
    majorListed: hasMajorListing(report),
    warned: hasWarning(report.lists),
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
      : coverage.majorListed || score < 50
        ? 'poor'
        : score >= 80 && !coverage.warned
          ? 'good'
          : 'fair';
  return { score, verdict, confidence, factors: sorted };
}

/** Code-unit order, the same under every locale, so the same findings list in the same order. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
