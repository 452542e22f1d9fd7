import { type ListResult, countsOf } from './dnsbl.js';

/**
 * How many lists a verdict rests on, said the same way everywhere (JSON `summary`, pool lines,
 * badge, card, share page): "listed on 2 of 16 lists that answered; 2 did not answer". A list that
 * lists a target only for information (Spamhaus PBL, URIBL grey) is counted apart, so it never
 * reads as a blocklisting beside a good verdict.
 */

export interface ListCoverage {
  /** Lists that list the target with at least one blocking (major or minor) listing. */
  blocking: number;
  /** Lists that list it for information only (every listing of severity `info`). */
  informational: number;
  /**
   * Reputation lists (Mailspike, Sender Score) whose grade costs points: not a listing, but never
   * "not listed" alone beside a penalty. Optional: a coverage made before grades were counted.
   */
  poor_reputation?: number;
  answered: number;
  not_answered: number;
  on_hold: number;
  disabled: number;
  /**
   * Lists that do not answer for the address's family (IPv6), left out of `total`. Optional: a
   * coverage read from a result stored before IPv6 has none.
   */
  not_covered?: number;
  /** The lists that cover the target. */
  total: number;
}

export function coverageOf(lists: readonly ListResult[]): ListCoverage {
  const { listed, answered, not_answered, on_hold, disabled, not_covered, total } = countsOf(lists);
  const informational = lists.filter(
    (list) => list.status === 'listed' && isInformational(list),
  ).length;
  const poorReputation = lists.filter(
    (list) => list.status !== 'listed' && list.grade !== undefined && list.grade.points < 0,
  ).length;
  return {
    blocking: listed - informational,
    informational,
    ...(poorReputation > 0 ? { poor_reputation: poorReputation } : {}),
    answered,
    not_answered,
    on_hold,
    disabled,
    not_covered,
    total,
  };
}

/** Every listing of the list is informational: a note about the address, not a block. */
export function isInformational(list: Pick<ListResult, 'listings' | 'severity'>): boolean {
  const listings = list.listings ?? [];
  return listings.length > 0
    ? listings.every((listing) => listing.severity === 'info')
    : list.severity === 'info';
}

const lists = (count: number) => `${count} list${count === 1 ? '' : 's'}`;

/** The lists that could not answer for an IPv6 address: `16 do not cover IPv6`. */
export function notCoveredPart(coverage: Pick<ListCoverage, 'not_covered'>): string[] {
  const count = coverage.not_covered ?? 0;
  return count > 0 ? [`${count} ${count === 1 ? 'does' : 'do'} not cover IPv6`] : [];
}

/**
 * The lists that did not contribute, e.g. `2 did not answer; 1 on hold; 1 disabled`, and for an
 * IPv6 address `16 do not cover IPv6`.
 */
export function missingParts(coverage: ListCoverage): string[] {
  return [
    ...(coverage.not_answered > 0 ? [`${coverage.not_answered} did not answer`] : []),
    ...(coverage.on_hold > 0 ? [`${coverage.on_hold} on hold`] : []),
    ...(coverage.disabled > 0 ? [`${coverage.disabled} disabled`] : []),
    ...notCoveredPart(coverage),
  ];
}

/**
 * `listed on 2 of 16 lists that answered; 2 did not answer`, `not listed on any of 18 lists;
 * 1 lists it for information only`, `no list answered; 18 on hold`, and for an IPv6 address
 * `not listed on any of 2 lists; 16 do not cover IPv6`.
 */
export function describeCoverage(coverage: ListCoverage): string {
  const { blocking, informational, answered, total } = coverage;
  const asked = answered === total ? lists(total) : `${lists(answered)} that answered`;
  const head =
    answered === 0
      ? 'no list answered'
      : blocking > 0
        ? `listed on ${blocking} of ${asked}`
        : `not listed on any of ${asked}`;
  const note =
    informational > 0
      ? [`${informational} ${informational === 1 ? 'lists' : 'list'} it for information only`]
      : [];
  const poor = coverage.poor_reputation ?? 0;
  if (poor > 0) note.push(`${poor} ${poor === 1 ? 'gives' : 'give'} it a poor reputation`);
  return [head, ...note, ...missingParts(coverage)].join('; ');
}
