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

/** The lists' counts as the results show them, and the lists. */
export interface DomainListCounts {
  listed: number;
  allowlisted: number;
  answered: number;
  not_answered: number;
  on_hold: number;
  disabled: number;
  needs_key: number;
  total: number;
  summary: string;
  lists: ListResult[];
}

/** The counts of a report; `more` adds to the summary (the domain tool's sender addresses). */
export function domainListCounts(report: DnsblReport, more: string[] = []): DomainListCounts {
  return {
    listed: report.listed,
    allowlisted: report.allowlisted,
    answered: report.answered,
    not_answered: report.not_answered,
    on_hold: report.on_hold,
    disabled: report.disabled,
    needs_key: report.needs_key,
    total: report.total,
    summary: [describeCoverage(coverageOf(report.lists)), ...more].join('; '),
    lists: report.lists,
  };
}
