import type { Deadline } from './deadline.js';
import type { DnsblEngine } from './dnsbl.js';
import { listingFactors, scoreOf } from './score.js';
import type { AddressSummary } from './result-schemas.js';

/**
 * One address's DNSBL result in brief, as the domain and pool tools show it for each address they
 * check: the score (listings and grades only: these tools do no reverse DNS) and where it is listed.
 */

export type { AddressSummary } from './result-schemas.js';

export async function summariseAddress(
  dnsbl: DnsblEngine,
  ip: string,
  deadline: Deadline,
): Promise<AddressSummary> {
  const report = await dnsbl.check({ kind: 'ip', address: ip }, deadline);
  const { score, verdict, confidence } = scoreOf(listingFactors(report), report);
  return {
    ip,
    score,
    verdict,
    confidence,
    listed: report.listed,
    answered: report.answered,
    total: report.total,
    listings: report.lists
      .filter((list) => list.status === 'listed')
      .map((list) => ({
        zone: list.zone,
        name: list.name,
        severity: list.listings?.[0]?.severity ?? list.severity,
        detail: (list.listings ?? []).map((listing) => listing.meaning).join('; '),
      })),
    unanswered: report.lists
      .filter((list) => list.status !== 'listed' && list.status !== 'clean')
      .map((list) => ({ zone: list.zone, status: list.status })),
  };
}
