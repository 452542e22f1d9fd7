import { type ListResult, countsOf } from './dnsbl.js';
import { type TrustLevel, trustLevels } from '../results/index.js';

/**
 * How many lists a verdict rests on, said the same way everywhere (JSON `summary`, pool lines,
 * badge, card, share page): "listed on 2 of 16 lists that answered; 2 did not answer". A list that
 * lists a target only for information (Spamhaus PBL, URIBL grey) is counted apart, so it never
 * reads as a blocklisting beside a good verdict; an allowlist that vouches for it is named, as
 * good news ("allowlisted on DNSWL.org (high trust)").
 */

/** An allowlist that vouches for the target, and how far. */
export interface Vouching {
  zone: string;
  name: string;
  trust: TrustLevel;
}

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
   * Of the disabled lists, those waiting for a key that is not set: the operator's choice, said
   * apart ("2 need a key") and left out of "lists that answered". Optional: a coverage read from a
   * result stored before keyed lists were shown has none.
   */
  needs_key?: number;
  /**
   * Lists that do not answer for the address's family (IPv6), left out of `total`. Optional: a
   * coverage read from a result stored before IPv6 has none.
   */
  not_covered?: number;
  /** The lists that cover the target. */
  total: number;
  /**
   * The allowlists that vouch for the target, the most trusting first. Optional: a coverage read
   * from a result stored before allowlists had a status of their own has none.
   */
  allowlists?: Vouching[];
}

export function coverageOf(lists: readonly ListResult[]): ListCoverage {
  const { listed, answered, not_answered, on_hold, disabled, needs_key, not_covered, total } =
    countsOf(lists);
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
    needs_key,
    not_covered,
    total,
    allowlists: vouchingOf(lists),
  };
}

/**
 * A trust level in words: `high trust`; DNSWL's `none` (it only keeps the sender from outright
 * blocking) reads `minimal trust`.
 */
export function trustWords(trust: TrustLevel): string {
  return `${trust === 'none' ? 'minimal' : trust} trust`;
}

/** The allowlists among `lists` that vouch for the target, the most trusting first. */
export function vouchingOf(lists: readonly ListResult[]): Vouching[] {
  return lists
    .filter((list) => list.status === 'allowlisted')
    .map((list) => ({ zone: list.zone, name: list.name, trust: list.trust ?? 'none' }))
    .sort((a, b) => trustLevels.indexOf(b.trust) - trustLevels.indexOf(a.trust));
}

/**
 * `allowlisted on DNSWL.org (high trust)`, `... and Mailspike Whitelist (medium trust)`, `...
 * and 2 more`: the most trusting allowlist named, the others named or counted.
 */
export function describeVouching(allowlists: readonly Vouching[] | undefined): string[] {
  const [first, second, ...rest] = allowlists ?? [];
  if (!first) return [];
  const named = (vouching: Vouching) => `${vouching.name} (${trustWords(vouching.trust)})`;
  const more =
    second === undefined
      ? ''
      : rest.length === 0
        ? ` and ${named(second)}`
        : ` and ${rest.length + 1} more`;
  return [`allowlisted on ${named(first)}${more}`];
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

/** The lists the service may ask: all of them but those waiting for a key. */
export function askableCount(coverage: Pick<ListCoverage, 'total' | 'needs_key'>): number {
  return coverage.total - (coverage.needs_key ?? 0);
}

/** The disabled lists but those waiting for a key: those that failed or await their proof. */
export function disabledByTest(coverage: Pick<ListCoverage, 'disabled' | 'needs_key'>): number {
  return coverage.disabled - (coverage.needs_key ?? 0);
}

/**
 * The lists that did not contribute, e.g. `2 did not answer; 1 on hold; 1 disabled`, and for an
 * IPv6 address `16 do not cover IPv6`; the lists waiting for a key last, `2 need a key`.
 */
export function missingParts(coverage: ListCoverage): string[] {
  const disabled = disabledByTest(coverage);
  const needsKey = coverage.needs_key ?? 0;
  return [
    ...(coverage.not_answered > 0 ? [`${coverage.not_answered} did not answer`] : []),
    ...(coverage.on_hold > 0 ? [`${coverage.on_hold} on hold`] : []),
    ...(disabled > 0 ? [`${disabled} disabled`] : []),
    ...notCoveredPart(coverage),
    ...(needsKey > 0 ? [`${needsKey} ${needsKey === 1 ? 'needs' : 'need'} a key`] : []),
  ];
}

/**
 * `listed on 2 of 16 lists that answered; 2 did not answer`, `not listed on any of 18 lists;
 * 1 lists it for information only`, `no list answered; 18 on hold`, and for an IPv6 address
 * `not listed on any of 2 lists; 16 do not cover IPv6`.
 */
export function describeCoverage(coverage: ListCoverage): string {
  const { blocking, informational, answered } = coverage;
  const total = askableCount(coverage);
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
  return [head, ...note, ...describeVouching(coverage.allowlists), ...missingParts(coverage)].join(
    '; ',
  );
}
