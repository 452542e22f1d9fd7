import { coverageOf, type IpCheckResult } from '../../reputation/index.js';
import type { ShareSummary } from '../../share/index.js';
import { listingsOf, shownAs } from '../common/index.js';

/** An IP check read as what its badge, card and share page show: the lists, reverse DNS, a score. */

export function summariseIp(stored: Record<string, unknown>): ShareSummary {
  const result = stored as unknown as IpCheckResult;
  const score = result.ip_score;
  const coverage = coverageOf(score.lists);
  return {
    tool: 'ip',
    counts: 'lists',
    ...(result.kind === 'domain' ? shownAs(result.target) : { target: result.target }),
    verdict: score.verdict,
    score: score.score,
    listed: coverage.blocking,
    checked: coverage.answered,
    coverage,
    listings: listingsOf(score.lists),
    rdns: { ptr: score.rdns.ptr, fcrdns: score.rdns.fcrdns, ip: result.ip },
    checkedAt: score.checked_at,
  };
}
