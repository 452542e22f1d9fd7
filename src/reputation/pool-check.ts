import { type AddressSummary, summariseAddress } from './address-summary.js';
import { createDeadline } from './deadline.js';
import type { DnsblEngine } from './dnsbl.js';
import type { PoolCheckResult } from './result-schemas.js';

/**
 * The pool tool's check: each selected address on the IP lists, each result also written as one
 * line a person can read.
 */

export type { PoolCheckResult } from './result-schemas.js';

export async function checkPoolAddresses(
  deps: { dnsbl: DnsblEngine; deadlineMs: number; now: () => Date },
  pool: string,
  ips: readonly string[],
): Promise<PoolCheckResult> {
  const deadline = createDeadline(deps.deadlineMs);
  try {
    // Every address at once: a list that does not answer holds each address for its whole
    // timeout, so addresses taken a few at a time would leave the later ones no time before the
    // shared deadline (no list answered). POOL_MAX_IPS bounds the addresses, the resolver's
    // in-flight cap the queries on the wire.
    const details = await Promise.all(ips.map((ip) => summariseAddress(deps.dnsbl, ip, deadline)));
    return {
      kind: 'check',
      pool,
      results: details.map(describeAddress),
      details,
      listed: details.filter((detail) => detail.listed > 0).length,
      checked: details.length,
      checked_at: deps.now().toISOString(),
    };
  } finally {
    deadline.clear();
  }
}

/**
 * `192.0.3.7: clean (0 of 18 lists)`, `192.0.3.8: listed on 2 of 18: zen.spamhaus.org (SBL),
 * bl.spamcop.net`; lists that did not answer are counted, never read as clean.
 */
export function describeAddress(summary: AddressSummary): string {
  const { ip, listed, answered, total } = summary;
  const unanswered = total - answered;
  const missing = unanswered > 0 ? `; ${unanswered} did not answer` : '';
  if (listed > 0) {
    const where = summary.listings.map((listing) => {
      const code = shortCode(listing.detail);
      return code ? `${listing.zone} (${code})` : listing.zone;
    });
    return `${ip}: listed on ${listed} of ${total}: ${where.join(', ')}${missing}`;
  }
  if (answered === 0) return `${ip}: unknown (no list answered)`;
  if (unanswered === 0) return `${ip}: clean (0 of ${total} lists)`;
  return `${ip}: not listed on ${answered} of ${total} lists${missing}`;
}

/** The short name a list gives its code ("SBL" from "SBL: direct spam source ..."), if it has one. */
function shortCode(detail: string): string | undefined {
  const codes = detail
    .split('; ')
    .map((meaning) => /^([A-Z][A-Za-z0-9-]{1,11}):/.exec(meaning)?.[1])
    .filter((code): code is string => code !== undefined);
  return codes.length > 0 ? [...new Set(codes)].join(', ') : undefined;
}
