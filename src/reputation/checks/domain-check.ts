import type { Resolver } from '../../dns/index.js';
import { isIpv6 } from '../../lib/index.js';
import { type AddressSummary, summariseAddress } from './address-summary.js';
import { createCheckDns, createDeadline, noPublicAddress } from '../lookups/index.js';
import { type DnsblEngine, listsAsked } from '../lists/index.js';
import { checkDomainLists, domainListCounts } from './domain-lists.js';
import {
  clip,
  type DomainCheckResult,
  maxListedAddresses,
  maxListedTerms,
  maxRecordChars,
  maxTermChars,
  type SpfSummary,
} from '../results/index.js';
import {
  askableTotal,
  type ScoreFactor,
  hasMajorListing,
  hasWarning,
  listingFactors,
  scoreFrom,
} from './score.js';
import { type SenderIps, discoverSenderIps, maxMxHosts } from './sender-ips.js';
import type { SpfExpansion } from '../spf/index.js';
import type { CheckOutcome } from './check-outcome.js';

/**
 * The domain tool's check: the domain's sender IPs (SPF + MX, IPv4 and IPv6), the domain itself
 * on the domain lists, and a DNSBL summary of its single sender addresses, scored like an IP.
 */

/** Sender addresses checked per domain: enough for a typical ESP setup, bounded for the lists' sake. */
export const maxAddressesChecked = 16;

/**
 * Queries a domain check may send while following the domain's records (SPF, MX, A, AAAA,
 * DMARC); its DNSBL queries are bounded apart, by the zones and `maxAddressesChecked`. The SPF
 * limits (RFC 7208 §4.6.4: 10 DNS-querying terms, 10 hosts per mx, each host asked A and AAAA)
 * allow about 230 lookups, the prefetch about as many again; MX, A, AAAA, DMARC and the MX
 * hosts' A and AAAA 25: a sound domain never comes near it.
 */
export const domainQueryBudget = 512;

/** What a listed sender address costs the domain (poor: it carries a major listing), capped in sum. */
const senderIpPenalty = { poor: 10, other: 5, cap: 30 } as const;
const spfPenalty = 10;
const dmarcPenalty = 5;

export type { DomainCheckResult, DomainScore, SpfSummary } from '../results/index.js';

export interface DomainCheckDeps {
  resolver: Resolver;
  dnsbl: DnsblEngine;
  deadlineMs: number;
  now: () => Date;
}

export type DomainCheckOutcome = CheckOutcome<DomainCheckResult>;

const rangesNotChecked =
  'not checked: a DNSBL is asked about one address at a time, and a range stands for many; ' +
  'check the addresses of a range that send mail with POST /ip/v1';

export async function checkDomain(
  deps: DomainCheckDeps,
  domain: { name: string; display: string },
): Promise<DomainCheckOutcome> {
  const deadline = createDeadline(deps.deadlineMs);
  try {
    const dns = createCheckDns(deps.resolver, deadline, domainQueryBudget);
    // Discovery gets most of the budget; the address checks that follow it need one more round trip.
    const discoveryMs = Math.round(deps.deadlineMs * 0.6);
    const [senders, domainReport] = await Promise.all([
      discoverSenderIps(dns, domain.name, { deadlineMs: discoveryMs, within: deadline }),
      checkDomainLists(deps.dnsbl, domain.name, deadline),
    ]);
    // A lookup of the domain's own records failed: nothing sure can be said about it. Lookups of
    // names its records point to are the domain's doing, and part of its result.
    const ownLookupFailed =
      senders.spf.status === 'unavailable' ||
      senders.lookupFailures.some((failure) => failure.name === domain.name);
    // The domain lists were asked beside the domain's own look-ups (one round trip, not two):
    // a failure found now comes after their queries, and says how many there were.
    const unavailable = {
      ok: false,
      error: 'dns_unavailable',
      reason: `no DNS answer for ${domain.name}`,
      listsAsked: listsAsked(domainReport),
    } as const;
    if (
      senders.spf.status === 'unavailable' &&
      senders.lookupFailures.some((f) => f.type === 'MX' && f.name === domain.name)
    ) {
      return unavailable;
    }
    if (senders.ipsTotal === 0 && senders.rangesTotal === 0 && senders.ip6RangesTotal === 0) {
      if (ownLookupFailed) return unavailable;
      // One answer for a domain that does not exist, has no address, or only internal ones.
      return { ok: false, error: 'invalid_target', reason: noPublicAddress(domain.name) };
    }
    const checked = addressesToCheck(senders.ips);
    // Every address at once: taken a few at a time, the later ones would find the shared deadline
    // spent by a list that does not answer. The resolver's in-flight cap bounds the queries.
    const results = await Promise.all(
      checked.map((ip) => summariseAddress(deps.dnsbl, ip, deadline)),
    );

    const factors = [
      ...listingFactors(domainReport),
      ...senderIpFactors(results),
      ...spfFactors(senders.spf),
      // A record receivers do not apply (dmarc-record.ts) protects the domain no more than none.
      ...(senders.dmarc.policy !== null
        ? []
        : [
            {
              kind: 'dmarc' as const,
              source: 'DMARC',
              detail: senders.dmarc.present
                ? 'a DMARC record receivers do not apply'
                : 'no DMARC record',
              points: -dmarcPenalty,
            },
          ]),
    ];
    const score = scoreFrom(factors, {
      answered: domainReport.answered,
      total: askableTotal(domainReport),
      majorListed: hasMajorListing(domainReport),
      warned: hasWarning(domainReport.lists),
    });
    // A sender address on a major list means some of the domain's mail is refused: never "good".
    if (score.verdict === 'good' && results.some((address) => address.verdict === 'poor')) {
      score.verdict = 'fair';
    }
    const result: DomainCheckResult = {
      domain: domain.name,
      ...(domain.display !== domain.name ? { display: domain.display } : {}),
      ips: senders.ips,
      ips_total: senders.ipsTotal,
      ips_truncated: senders.ips.length < senders.ipsTotal,
      ranges: senders.ranges,
      ranges_total: senders.rangesTotal,
      exists: true,
      ip6: senders.ip6Ranges,
      ip6_total: senders.ip6RangesTotal,
      mx: senders.mx,
      mx_total: senders.mxTotal,
      spf: spfSummary(senders.spf),
      dmarc: senders.dmarc,
      domain_score: { ...score, ...domainListCounts(domainReport, sendersSummary(results)) },
      addresses: {
        checked: results.length,
        listed: results.filter((result) => result.listed > 0).length,
        not_checked: senders.ips.filter((ip) => !checked.includes(ip)),
        ranges: { checked: 0, how: rangesNotChecked },
        results,
      },
      notes: notesOf(senders, dns.exhausted),
      checked_at: deps.now().toISOString(),
    };
    return { ok: true, result };
  } finally {
    deadline.clear();
  }
}

/**
 * The sender addresses checked on the IP lists: at most `maxAddressesChecked`, the first of each
 * family in `ips` order, half the room for each when both have more (the other family's unused
 * room goes to the one that needs it), so a domain with many IPv4 senders still has its IPv6
 * ones checked, and the other way round.
 */
export function addressesToCheck(ips: readonly string[]): string[] {
  const ipv6 = ips.filter(isIpv6);
  const ipv4 = ips.filter((ip) => !isIpv6(ip));
  const half = maxAddressesChecked / 2;
  const ipv4Room = Math.max(half, maxAddressesChecked - ipv6.length);
  const fromIpv4 = ipv4.slice(0, ipv4Room);
  return [...fromIpv4, ...ipv6.slice(0, maxAddressesChecked - fromIpv4.length)];
}

function notesOf(senders: SenderIps, budgetSpent: boolean): string[] {
  const notes: string[] = [];
  if (senders.mxTotal > maxMxHosts) {
    notes.push(
      `Looked up the ${maxMxHosts} most preferred of ${senders.mxTotal} MX hosts (RFC 7208 §4.6.4 allows an mx term 10).`,
    );
  }
  if (senders.ipsTotal > maxListedAddresses) {
    notes.push(`Lists the first ${maxListedAddresses} of ${senders.ipsTotal} sender addresses.`);
  }
  if (budgetSpent) {
    notes.push(
      `Stopped following the domain's records after ${domainQueryBudget} DNS queries; what was left is reported as not answered.`,
    );
  }
  return notes;
}

export function spfSummary(spf: SpfExpansion): SpfSummary {
  const { ip4: _ip4, ip6: _ip6, record, nonPass, error, ...rest } = spf;
  const shown = record === null ? null : clip(record, maxRecordChars);
  return {
    ...rest,
    // A syntax error quotes the offending text, which may be most of a 60 KB record.
    ...(error && {
      error: {
        ...error,
        reason: clip(error.reason, maxRecordChars),
        term: error.term === null ? null : clip(error.term, maxTermChars),
      },
    }),
    record: shown,
    ...(shown !== record ? { recordTruncated: true } : {}),
    nonPass: nonPass.slice(0, maxListedTerms),
    ...(nonPass.length > maxListedTerms ? { nonPassTotal: nonPass.length } : {}),
  };
}

/** After the domain lists' counts, how many of the sender addresses checked are listed. */
function sendersSummary(addresses: AddressSummary[]): string[] {
  const listedAddresses = addresses.filter((address) => address.listed > 0).length;
  return addresses.length === 0
    ? []
    : [`${listedAddresses} of ${addresses.length} sender IPs listed`];
}

function senderIpFactors(results: AddressSummary[]): ScoreFactor[] {
  let budget: number = senderIpPenalty.cap;
  const factors: ScoreFactor[] = [];
  for (const result of results.filter((r) => r.listed > 0)) {
    const cost = Math.min(
      budget,
      result.verdict === 'poor' ? senderIpPenalty.poor : senderIpPenalty.other,
    );
    budget -= cost;
    const detail = `sender IP listed on ${result.listings.map((listing) => listing.name).join(', ')}`;
    factors.push({ kind: 'sender_ip', source: result.ip, detail, points: -cost });
  }
  return factors;
}

/** RFC 7208: without a valid SPF record receivers cannot tell the domain's senders from forgers. */
function spfFactors(spf: SpfExpansion): ScoreFactor[] {
  if (spf.status === 'none')
    return [{ kind: 'spf', source: 'SPF', detail: 'no SPF record', points: -spfPenalty }];
  if (spf.status === 'multiple') {
    return [
      {
        kind: 'spf',
        source: 'SPF',
        detail: 'several SPF records (permerror)',
        points: -spfPenalty,
      },
    ];
  }
  if (spf.error?.kind === 'permerror') {
    return [
      { kind: 'spf', source: 'SPF', detail: `permerror: ${spf.error.reason}`, points: -spfPenalty },
    ];
  }
  return [];
}
