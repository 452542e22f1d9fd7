import type { DomainCheckResult } from '../reputation/domain-check.js';
import type { ListResult } from '../reputation/dnsbl.js';
import type { IpCheckResult } from '../reputation/ip-check.js';
import type { PoolCheckResult } from '../reputation/pool-check.js';
import { displayName } from '../reputation/targets.js';
import type { Severity } from '../reputation/zones.js';
import type { ShareListing, ShareSummary } from '../share/summary.js';

/** Each tool's stored result, read as the tool-independent summary its badge, card and page show. */

const severityRank: Record<Severity, number> = { major: 0, minor: 1, info: 2 };

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
      severity:
        list.listings?.reduce<Severity>(
          (worst, listing) =>
            severityRank[listing.severity] < severityRank[worst] ? listing.severity : worst,
          'info',
        ) ?? list.severity,
    }))
    .sort((a, b) => severityRank[a.severity] - severityRank[b.severity]);
}

export function summariseIp(stored: Record<string, unknown>): ShareSummary {
  const result = stored as unknown as IpCheckResult;
  const score = result.ip_score;
  return {
    tool: 'ip',
    ...(result.kind === 'domain' ? shownAs(result.target) : { target: result.target }),
    verdict: score.verdict,
    score: score.score,
    listed: score.listed,
    checked: score.answered,
    listings: listingsOf(score.lists),
    rdns: { ptr: score.rdns.ptr, fcrdns: score.rdns.fcrdns },
    checkedAt: score.checked_at,
  };
}

export function summariseDomain(stored: Record<string, unknown>): ShareSummary {
  const result = stored as unknown as DomainCheckResult;
  const score = result.domain_score;
  const senderListings: ShareListing[] = result.addresses.results
    .filter((address) => address.listed > 0)
    .map((address) => ({
      list: `Sender IP ${address.ip}`,
      detail: `listed on ${address.listings.map((listing) => listing.name).join(', ')}`,
      severity: address.verdict === 'poor' ? 'major' : 'minor',
    }));
  return {
    tool: 'domain',
    ...shownAs(result.domain),
    verdict: score.verdict,
    score: score.score,
    listed: score.listed,
    checked: score.answered,
    listings: [...listingsOf(score.lists), ...senderListings],
    addresses: { total: result.addresses.checked, listed: result.addresses.listed },
    checkedAt: result.checked_at,
  };
}

/**
 * A pool check: addresses listed of addresses checked; the worst address sets the verdict. A
 * discover checked nothing yet: its verdict is unknown and its card counts the addresses found.
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
  const verdict =
    answered.length === 0
      ? 'unknown'
      : answered.some((detail) => detail.verdict === 'poor')
        ? 'poor'
        : result.listed > 0
          ? 'fair'
          : 'good';
  return {
    tool: 'pool',
    ...shownAs(result.pool),
    verdict,
    score: null,
    listed: result.listed,
    checked: result.checked,
    listings: result.details
      .filter((detail) => detail.listed > 0)
      .map((detail) => ({
        list: detail.ip,
        detail: `listed on ${detail.listings.map((listing) => listing.name).join(', ')}`,
        severity: detail.verdict === 'poor' ? 'major' : 'minor',
      })),
    addresses: { total: result.checked, listed: result.listed },
    checkedAt: result.checked_at,
  };
}
