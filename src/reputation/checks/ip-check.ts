import type { Resolver } from '../../dns/index.js';
import { createCheckDns, createDeadline, publicAddressesOf } from '../lookups/index.js';
import {
  coverageOf,
  describeCoverage,
  type DnsblEngine,
  type DnsblReport,
  listsAsked,
} from '../lists/index.js';
import { type ReverseDns, reverseDns } from './rdns.js';
import { listCountsOf } from './domain-lists.js';
import { type IpCheckResult, maxAddressesPerHost } from '../results/index.js';
import { listingFactors, reverseDnsFactors, scoreOf } from './score.js';
import { senderRuleBreaks, senderRulesFactor } from './sender-rules.js';
import type { Target } from '../targets/index.js';
import type { CheckOutcome } from './check-outcome.js';

/**
 * The IP tool's check: DNSBL fan-out in parallel with PTR then forward A (AAAA for an IPv6
 * address), then the score.
 */

export type { IpCheckResult, IpScore } from '../results/index.js';

export type IpCheckOutcome = CheckOutcome<IpCheckResult>;

export interface IpCheckDeps {
  resolver: Resolver;
  dnsbl: DnsblEngine;
  deadlineMs: number;
  now: () => Date;
}

/**
 * Every list timed out and the PTR lookup failed too: the resolver is down. That is a 503 to retry
 * later, not an "unknown" result to keep under a token and serve from the result cache.
 */
function heardNothing(report: DnsblReport, rdns: ReverseDns): boolean {
  const asked = report.lists.filter((list) => list.status !== 'disabled');
  return (
    asked.length > 0 &&
    asked.every((list) => list.status === 'timeout') &&
    rdns.fcrdns === 'error' &&
    rdns.names.length === 0
  );
}

/**
 * Queries an IP check may send besides its DNSBL queries: the host name's A and AAAA records.
 * Reverse DNS keeps to its own bound (one PTR, ten names confirmed).
 */
const ipQueryBudget = 4;

export async function checkIp(deps: IpCheckDeps, target: Target): Promise<IpCheckOutcome> {
  const deadline = createDeadline(deps.deadlineMs);
  try {
    let ip: string;
    let addresses: string[] | undefined;
    if (target.kind !== 'domain') {
      ip = target.address;
    } else {
      const dns = createCheckDns(deps.resolver, deadline, ipQueryBudget);
      const resolved = await deadline.race(publicAddressesOf(dns, target.name), {
        ok: false as const,
        error: 'dns_unavailable' as const,
        reason: `could not resolve ${target.name} in time`,
      });
      // No list is asked before the name resolves: its failure did no list's work.
      if (!resolved.ok) {
        return resolved.error === 'invalid_target'
          ? { ok: false, error: 'invalid_target', reason: resolved.reason }
          : { ok: false, error: 'dns_unavailable', reason: resolved.reason, listsAsked: 0 };
      }
      addresses = resolved.addresses;
      ip = resolved.checked;
    }

    const [report, rdns] = await Promise.all([
      deps.dnsbl.check({ kind: 'ip', address: ip }, deadline),
      reverseDns(deps.resolver, ip, deadline),
    ]);
    if (heardNothing(report, rdns)) {
      // Not a result to keep under a token and serve from the cache: the DNS was down.
      return {
        ok: false,
        error: 'dns_unavailable',
        reason: `no DNS answer about ${ip}`,
        listsAsked: listsAsked(report),
      };
    }
    // Receivers refuse mail from an address without forward-confirmed PTR or on a policy list:
    // such an address is never a `good` sender, whatever else it scores (docs/score.md).
    const factors = [...listingFactors(report), ...reverseDnsFactors(rdns)];
    const broken = senderRuleBreaks(rdns, report.lists);
    const held = senderRulesFactor(factors, broken);
    const score = scoreOf(held ? [...factors, held] : factors, report, broken.length > 0);
    return {
      ok: true,
      result: {
        kind: target.kind,
        target: target.kind === 'domain' ? target.name : target.address,
        ip,
        ptr: rdns.ptr,
        ip_score: {
          ...score,
          ...listCountsOf(report),
          not_covered: report.not_covered,
          total: report.total,
          summary: describeCoverage(coverageOf(report.lists)),
          lists: report.lists,
          rdns,
          ...(addresses ? { addresses: addresses.slice(0, maxAddressesPerHost) } : {}),
          ...(addresses && addresses.length > maxAddressesPerHost
            ? { addresses_total: addresses.length }
            : {}),
          checked_at: deps.now().toISOString(),
        },
      },
    };
  } finally {
    deadline.clear();
  }
}
