import { bySeverity, coverageOf, type DomainCheckResult } from '../../reputation/index.js';
import type { ShareSummary } from '../../share/index.js';
import { addressListing, listingsOf, shownAs } from '../common/index.js';

/**
 * A domain check read as what its badge, card and share page show: the domain's own lists and
 * score, its listed sender IPs among the listings.
 */

export function summariseDomain(stored: Record<string, unknown>): ShareSummary {
  const result = stored as unknown as DomainCheckResult;
  const score = result.domain_score;
  const coverage = coverageOf(score.lists);
  const senderListings = result.addresses.results
    .filter((address) => address.listed > 0)
    .map((address) => addressListing(address, true));
  return {
    tool: 'domain',
    counts: 'lists',
    ...shownAs(result.domain),
    verdict: score.verdict,
    score: score.score,
    listed: coverage.blocking,
    checked: coverage.answered,
    coverage,
    listings: [...listingsOf(score.lists), ...senderListings].sort(bySeverity),
    addresses: { total: result.addresses.checked, listed: result.addresses.listed },
    checkedAt: result.checked_at,
  };
}
