import {
  coverageOf,
  type DnsblEngine,
  type DnsblReport,
  describeCoverage,
} from '../lists/index.js';
import type { Deadline } from '../lookups/index.js';
import type { ListResult } from '../results/index.js';

/**
 * The domain itself on the domain lists (Spamhaus DBL, URIBL, SURBL ...): the domain tool's check,
 * which the mail check runs too, so a domain's own standing reads the same in both.
 */

export function checkDomainLists(
  dnsbl: DnsblEngine,
  name: string,
  deadline: Deadline,
): Promise<DnsblReport> {
  return dnsbl.check({ kind: 'domain', name }, deadline);
}

/** A report's counts, as every result carries them beside its lists. */
export type ListCounts = Pick<
  DnsblReport,
  | 'listed'
  | 'allowlisted'
  | 'answered'
  | 'not_answered'
  | 'on_hold'
  | 'disabled'
  | 'needs_key'
  | 'total'
>;

export function listCountsOf(report: DnsblReport): ListCounts {
  const { listed, allowlisted, answered, not_answered, on_hold, disabled, needs_key, total } =
    report;
  return { listed, allowlisted, answered, not_answered, on_hold, disabled, needs_key, total };
}

/** The domain lists' counts, in words too, and the lists. */
export interface DomainListCounts extends ListCounts {
  summary: string;
  lists: ListResult[];
}

/** The counts of a report; `more` adds to the summary (the domain tool's sender addresses). */
export function domainListCounts(report: DnsblReport, more: string[] = []): DomainListCounts {
  return {
    ...listCountsOf(report),
    total: report.total,
    summary: [describeCoverage(coverageOf(report.lists)), ...more].join('; '),
    lists: report.lists,
  };
}
