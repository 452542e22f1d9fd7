import {
  type AddressSummary,
  bySeverity,
  type ListCoverage,
  type PoolCheckResult,
} from '../../reputation/index.js';
import type { ShareSummary } from '../../share/index.js';
import { addressListing, shownAs } from '../common/index.js';

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
  const needsKey = weakest.needs_key ?? 0;
  return {
    blocking: 0,
    informational: 0,
    answered: weakest.answered,
    not_answered: weakest.not_answered ?? weakest.total - weakest.answered - onHold - disabled,
    on_hold: onHold,
    disabled,
    needs_key: needsKey,
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
      counts: 'addresses',
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
    counts: 'addresses',
    ...shownAs(result.pool),
    verdict,
    score: null,
    listed: listed.length,
    checked: result.checked,
    ...(coverage ? { coverage } : {}),
    listings: result.details
      .filter((detail) => detail.listed > 0)
      .map((detail) => addressListing(detail, false))
      .sort(bySeverity),
    addresses: { total: result.checked, listed: listed.length },
    checkedAt: result.checked_at,
  };
}
