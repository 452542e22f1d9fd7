import type { Resolver } from '../dns/index.js';
import { type AddressSummary, summariseAddress } from './address-summary.js';
import { createDeadline } from './deadline.js';
import type { DnsblEngine } from './dnsbl.js';
import { isDottedQuad, isPublicIpv4 } from './ipv4.js';
import { type ScoreFactor, hasMajorListing, listingFactors, scoreFrom } from './score.js';
import { discoverSenderIps } from './sender-ips.js';
import type { SpfExpansion } from './spf.js';
import type { DomainCheckResult } from './result-schemas.js';

/**
 * The domain tool's check: the domain's sender IPs (SPF + MX), the domain itself on the domain
 * lists, and a DNSBL summary of its single sender addresses, scored like an IP.
 */

export type { DomainCheckResult, DomainScore } from './result-schemas.js';

/** Sender addresses checked per domain: enough for a typical ESP setup, bounded for the lists' sake. */
export const maxAddressesChecked = 16;

/** What a listed sender address costs the domain (poor: it carries a major listing), capped in sum. */
const senderIpPenalty = { poor: 10, other: 5, cap: 30 } as const;
const spfPenalty = 10;
const dmarcPenalty = 5;

export interface DomainCheckDeps {
  resolver: Resolver;
  dnsbl: DnsblEngine;
  deadlineMs: number;
  now: () => Date;
}

export type DomainCheckOutcome =
  { ok: true; result: DomainCheckResult } | { ok: false; error: 'dns_unavailable'; reason: string };

export async function checkDomain(
  deps: DomainCheckDeps,
  domain: { name: string; display: string },
): Promise<DomainCheckOutcome> {
  const deadline = createDeadline(deps.deadlineMs);
  try {
    // Discovery gets most of the budget; the address checks that follow it need one more round trip.
    const discoveryMs = Math.round(deps.deadlineMs * 0.6);
    const [senders, domainReport] = await Promise.all([
      discoverSenderIps(deps.resolver, domain.name, { deadlineMs: discoveryMs }),
      deps.dnsbl.check({ kind: 'domain', name: domain.name }, deadline),
    ]);
    // Neither its SPF nor its MX lookup answered: nothing can be said about the domain.
    if (
      senders.spf.status === 'unavailable' &&
      senders.lookupFailures.some((f) => f.type === 'MX')
    ) {
      return { ok: false, error: 'dns_unavailable', reason: `no DNS answer for ${domain.name}` };
    }
    const singles = senders.ips.filter((entry) => isDottedQuad(entry) && isPublicIpv4(entry));
    const checked = singles.slice(0, maxAddressesChecked);
    // Every address at once: taken a few at a time, the later ones would find the shared deadline
    // spent by a list that does not answer. The resolver's in-flight cap bounds the queries.
    const results = await Promise.all(
      checked.map((ip) => summariseAddress(deps.dnsbl, ip, deadline)),
    );

    const factors = [
      ...listingFactors(domainReport),
      ...senderIpFactors(results),
      ...(senders.exists ? spfFactors(senders.spf) : []),
      ...(senders.exists && !senders.dmarc.present
        ? [
            {
              kind: 'dmarc' as const,
              source: 'DMARC',
              detail: 'no DMARC record',
              points: -dmarcPenalty,
            },
          ]
        : []),
    ];
    const score = scoreFrom(factors, {
      answered: domainReport.answered,
      total: domainReport.total,
      majorListed: hasMajorListing(domainReport),
    });
    // A sender address on a major list means some of the domain's mail is refused: never "good".
    if (score.verdict === 'good' && results.some((address) => address.verdict === 'poor')) {
      score.verdict = 'fair';
    }
    // A domain that does not exist sends no mail: there is nothing good to say about it.
    if (!senders.exists && score.verdict !== 'poor') score.verdict = 'unknown';
    const result: DomainCheckResult = {
      domain: domain.name,
      ...(domain.display !== domain.name ? { display: domain.display } : {}),
      ips: senders.ips,
      exists: senders.exists,
      ip6: senders.spf.ip6,
      mx: senders.mx,
      spf: senders.spf,
      dmarc: senders.dmarc,
      domain_score: {
        ...score,
        listed: domainReport.listed,
        answered: domainReport.answered,
        total: domainReport.total,
        lists: domainReport.lists,
      },
      addresses: {
        checked: results.length,
        listed: results.filter((result) => result.listed > 0).length,
        not_checked: senders.ips.filter((entry) => !checked.includes(entry)),
        results,
      },
      checked_at: deps.now().toISOString(),
    };
    return { ok: true, result };
  } finally {
    deadline.clear();
  }
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
