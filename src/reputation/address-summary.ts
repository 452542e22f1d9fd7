import type { Deadline } from './deadline.js';
import type { DnsblEngine } from './dnsbl.js';
import { type Score, listingFactors, scoreOf } from './score.js';

/**
 * One address's DNSBL result in brief, as the domain and pool tools show it for each address they
 * check: the score (listings and grades only: these tools do no reverse DNS) and where it is listed.
 */
export interface AddressSummary extends Pick<Score, 'score' | 'verdict' | 'confidence'> {
  ip: string;
  listed: number;
  answered: number;
  total: number;
  /** The lists that list it, with the meaning of their codes. */
  listings: { zone: string; name: string; severity: string; detail: string }[];
  /** Lists that could not answer (timeout, error, disabled): what the result is unsure about. */
  unanswered: { zone: string; status: string }[];
}

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
