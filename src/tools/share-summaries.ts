import type { DomainCheckResult } from '../reputation/domain-check.js';
import type { ListResult } from '../reputation/dnsbl.js';
import type { IpCheckResult } from '../reputation/ip-check.js';
import type { Severity } from '../reputation/zones.js';
import type { ShareListing, ShareSummary } from '../share/summary.js';

/** Each tool's stored result, read as the tool-independent summary its badge, card and page show. */

const severityRank: Record<Severity, number> = { major: 0, minor: 1, info: 2 };

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
    target: result.target,
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
    target: result.display ?? result.domain,
    verdict: score.verdict,
    score: score.score,
    listed: score.listed,
    checked: score.answered,
    listings: [...listingsOf(score.lists), ...senderListings],
    addresses: { total: result.addresses.checked, listed: result.addresses.listed },
    checkedAt: result.checked_at,
  };
}
