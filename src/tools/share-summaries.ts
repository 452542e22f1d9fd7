import {
  type AddressSummary,
  coverageOf,
  displayName,
  type DomainCheckResult,
  type IpCheckResult,
  type ListCoverage,
  type ListResult,
  type PoolCheckResult,
  type Severity,
} from '../reputation/index.js';
import type { ShareListing, ShareSummary } from '../share/index.js';

/** Each tool's stored result, read as the tool-independent summary its badge, card and page show. */

const severityRank: Record<Severity, number> = { major: 0, minor: 1, info: 2 };

function worst(severities: Iterable<Severity>): Severity {
  let result: Severity = 'info';
  for (const severity of severities)
    if (severityRank[severity] < severityRank[result]) result = severity;
  return result;
}

/**
 * The target fields of a summary from a checked name's ASCII form. Worked out here rather than
 * read from a stored `display`, so results stored before a change of the rule show by today's.
 */
function shownAs(ascii: string): Pick<ShareSummary, 'target' | 'lookAlike'> {
  const { display, mixedScripts } = displayName(ascii);
  return { target: display, ...(mixedScripts ? { lookAlike: mixedScripts } : {}) };
}

/** The lists that list a target, most severe first. */
export function listingsOf(lists: readonly ListResult[]): ShareListing[] {
  return lists
    .filter((list) => list.status === 'listed')
    .map((list) => ({
      list: list.name,
      detail:
        (list.listings ?? []).map((listing) => listing.meaning).join('; ') ||
        (list.codes ?? []).join(', '),
      severity: list.listings
        ? worst(list.listings.map((listing) => listing.severity))
        : list.severity,
    }))
    .sort((a, b) => severityRank[a.severity] - severityRank[b.severity]);
}

export function summariseIp(stored: Record<string, unknown>): ShareSummary {
  const result = stored as unknown as IpCheckResult;
  const score = result.ip_score;
  const coverage = coverageOf(score.lists);
  return {
    tool: 'ip',
    ...(result.kind === 'domain' ? shownAs(result.target) : { target: result.target }),
    verdict: score.verdict,
    score: score.score,
    listed: coverage.blocking,
    checked: coverage.answered,
    coverage,
    listings: listingsOf(score.lists),
    rdns: { ptr: score.rdns.ptr, fcrdns: score.rdns.fcrdns },
    checkedAt: score.checked_at,
  };
}

/** A sender address's listings, as severe as its worst one. */
function senderListing(address: AddressSummary): ShareListing {
  return addressListing(address, true);
}

/** An address and the lists it is on, as severe as its worst listing. */
function addressListing(address: AddressSummary, sender: boolean): ShareListing {
  const lists = address.listings.map((listing) => listing.name);
  return {
    list: sender ? `Sender IP ${address.ip}` : address.ip,
    detail: `listed on ${lists.join(', ')}`,
    severity: worst(address.listings.map((listing) => listing.severity)),
    address: { ip: address.ip, sender, lists },
  };
}

export function summariseDomain(stored: Record<string, unknown>): ShareSummary {
  const result = stored as unknown as DomainCheckResult;
  const score = result.domain_score;
  const coverage = coverageOf(score.lists);
  const senderListings = result.addresses.results
    .filter((address) => address.listed > 0)
    .map(senderListing);
  return {
    tool: 'domain',
    ...shownAs(result.domain),
    verdict: score.verdict,
    score: score.score,
    listed: coverage.blocking,
    checked: coverage.answered,
    coverage,
    listings: [...listingsOf(score.lists), ...senderListings].sort(
      (a, b) => severityRank[a.severity] - severityRank[b.severity],
    ),
    addresses: { total: result.addresses.checked, listed: result.addresses.listed },
    checkedAt: result.checked_at,
  };
}

/** Blocklisted: at least one listing that is not informational. */
function blocklisted(address: AddressSummary): boolean {
  return address.listings.some((listing) => listing.severity !== 'info');
}

/**
 * The lists behind a pool check, counted at its least-answered address: what every address's
 * verdict can at least rely on. Results stored before the counts existed count every list that
 * did not answer as not answered.
 */
function poolCoverage(details: readonly AddressSummary[]): ListCoverage | undefined {
  const weakest = details.reduce<AddressSummary | undefined>(
    (least, detail) => (least === undefined || detail.answered < least.answered ? detail : least),
    undefined,
  );
  if (!weakest) return undefined;
  const onHold = weakest.on_hold ?? 0;
  const disabled = weakest.disabled ?? 0;
  return {
    blocking: 0,
    informational: 0,
    answered: weakest.answered,
    not_answered: weakest.not_answered ?? weakest.total - weakest.answered - onHold - disabled,
    on_hold: onHold,
    disabled,
    not_covered: weakest.not_covered ?? 0,
    total: weakest.total,
  };
}

/**
 * A pool check: addresses blocklisted of addresses checked; the worst address sets the verdict.
 * A discover checked nothing yet: its verdict is unknown and its card counts the addresses found.
 */
export function summarisePool(stored: Record<string, unknown>): ShareSummary {
  if (stored.kind === 'discover') {
    const found = (stored.ips as string[] | undefined) ?? [];
    return {
      tool: 'pool',
      ...shownAs(String(stored.pool)),
      verdict: 'unknown',
      score: null,
      listed: 0,
      checked: 0,
      listings: [],
      addresses: { total: found.length, listed: 0 },
      checkedAt: String(stored.checked_at),
    };
  }
  const result = stored as unknown as PoolCheckResult;
  const answered = result.details.filter((detail) => detail.answered > 0);
  const listed = result.details.filter(blocklisted);
  const verdict =
    answered.length === 0
      ? 'unknown'
      : answered.some((detail) => detail.verdict === 'poor')
        ? 'poor'
        : listed.length > 0
          ? 'fair'
          : 'good';
  const coverage = poolCoverage(result.details);
  return {
    tool: 'pool',
    ...shownAs(result.pool),
    verdict,
    score: null,
    listed: listed.length,
    checked: result.checked,
    ...(coverage ? { coverage } : {}),
    listings: result.details
      .filter((detail) => detail.listed > 0)
      .map((detail) => addressListing(detail, false))
      .sort((a, b) => severityRank[a.severity] - severityRank[b.severity]),
    addresses: { total: result.checked, listed: listed.length },
    checkedAt: result.checked_at,
  };
}
