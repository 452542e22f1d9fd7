import {
  answeredUsably,
  askableCount,
  coverageOf,
  describeCoverage,
  type DnsblEngine,
  missingParts,
  vouchingOf,
} from '../lists/index.js';
import type { Deadline } from '../lookups/index.js';
import { type AddressSummary, worstSeverity } from '../results/index.js';
import { listingFactors, scoreOf } from './score.js';
import { policyBreaks, senderRulesFactor } from './sender-rules.js';
import { listCountsOf } from './domain-lists.js';

/**
 * One address's DNSBL result in brief, as the domain and pool tools show it for each address they
 * check: the score (listings and grades only: these tools do no reverse DNS, and a policy listing
 * holds it under `good`) and where it is listed.
 */

export type { AddressSummary } from '../results/index.js';

export async function summariseAddress(
  dnsbl: DnsblEngine,
  ip: string,
  deadline: Deadline,
): Promise<AddressSummary> {
  const report = await dnsbl.check({ kind: 'ip', address: ip }, deadline);
  // A policy listing holds the address under `good` as the IP check does (sender-rules.ts); these
  // checks ask no reverse DNS, so the ptr rule is the IP check's alone.
  const factors = listingFactors(report);
  const broken = policyBreaks(report.lists);
  const held = senderRulesFactor(factors, broken);
  const { score, verdict, confidence } = scoreOf(
    held ? [...factors, held] : factors,
    report,
    broken.length > 0,
  );
  const allowlists = vouchingOf(report.lists);
  return {
    ip,
    score,
    verdict,
    confidence,
    ...listCountsOf(report),
    not_covered: report.not_covered,
    total: report.total,
    summary: describeCoverage(coverageOf(report.lists)),
    listings: report.lists
      .filter((list) => list.status === 'listed')
      .map((list) => ({
        zone: list.zone,
        name: list.name,
        severity: worstSeverity(
          list.listings?.map((listing) => listing.severity) ?? [list.severity],
        ),
        detail: (list.listings ?? []).map((listing) => listing.meaning).join('; '),
        codes: list.codes ?? [],
        ...(list.lookup_url ? { lookup_url: list.lookup_url } : {}),
        ...(list.delist_url ? { delist_url: list.delist_url } : {}),
        ...((list.listings ?? []).length > 0 && list.listings!.every((listing) => listing.policy)
          ? { policy: true as const }
          : {}),
      })),
    ...(allowlists.length > 0 ? { allowlists } : {}),
    unanswered: report.lists
      .filter((list) => !answeredUsably(list) && !list.not_covered)
      .map((list) => ({ zone: list.zone, status: list.status })),
  };
}

/**
 * One address as a line: `192.0.3.8: listed on 2 of 16 lists that answered: zen.spamhaus.org
 * (SBL), bl.spamcop.net; 2 did not answer`. Lists that did not answer are counted, never read as
 * clean; informational listings are named apart from blocking ones.
 */
export function describeAddressLine(summary: AddressSummary): string {
  const blocking = summary.listings.filter((listing) => listing.severity !== 'info');
  if (blocking.length === 0) return `${summary.ip}: ${summary.summary}`;
  const total = askableCount(summary);
  const asked =
    summary.answered === total ? `${total} lists` : `${summary.answered} lists that answered`;
  const where = blocking.map((listing) => {
    const code = shortCode(listing.detail);
    return code ? `${listing.zone} (${code})` : listing.zone;
  });
  const informational = summary.listings.length - blocking.length;
  const rest = [
    ...(informational > 0 ? [`${informational} more for information only`] : []),
    ...missingParts({ ...summary, blocking: blocking.length, informational }),
  ];
  return [
    `${summary.ip}: listed on ${blocking.length} of ${asked}: ${where.join(', ')}`,
    ...rest,
  ].join('; ');
}

/** The short name a list gives its code ("SBL" from "SBL: direct spam source ..."), if it has one. */
function shortCode(detail: string): string | undefined {
  const codes = detail
    .split('; ')
    .map((meaning) => /^([A-Z][A-Za-z0-9-]{1,11}):/.exec(meaning)?.[1])
    .filter((code): code is string => code !== undefined);
  return codes.length > 0 ? [...new Set(codes)].join(', ') : undefined;
}
