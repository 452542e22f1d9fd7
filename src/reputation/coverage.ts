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
  answered: number;
  not_answered: number;
  on_hold: number;
  disabled: number;
  total: number;
}

export function coverageOf(lists: readonly ListResult[]): ListCoverage {
  const { listed, answered, not_answered, on_hold, disabled, total } = countsOf(lists);
  const informational = lists.filter(
    (list) => list.status === 'listed' && isInformational(list),
  ).length;
  return {
    blocking: listed - informational,
    informational,
    answered,
    not_answered,
    on_hold,
    disabled,
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

/** The lists that did not contribute, e.g. `2 did not answer; 1 on hold; 1 disabled`. */
export function missingParts(coverage: ListCoverage): string[] {
  return [
    ...(coverage.not_answered > 0 ? [`${coverage.not_answered} did not answer`] : []),
    ...(coverage.on_hold > 0 ? [`${coverage.on_hold} on hold`] : []),
    ...(coverage.disabled > 0 ? [`${coverage.disabled} disabled`] : []),
  ];
}

/**
 * `listed on 2 of 16 lists that answered; 2 did not answer`, `not listed on any of 18 lists;
 * 1 lists it for information only`, `no list answered; 18 on hold`.
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
  return [head, ...note, ...missingParts(coverage)].join('; ');
}
