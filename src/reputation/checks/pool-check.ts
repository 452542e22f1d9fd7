import { type AddressSummary, describeAddressLine, summariseAddress } from './address-summary.js';
import { createDeadline } from '../lookups/index.js';
import type { DnsblEngine } from '../lists/index.js';
import type { PoolCheckResult } from '../results/index.js';

/**
 * The pool tool's check: each selected address on the IP lists, each result also written as one
 * line a person can read.
 */

export type { PoolCheckResult } from '../results/index.js';

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

/** One line per address; see `describeAddressLine` (lists that did not answer are never clean). */
export function describeAddress(summary: AddressSummary): string {
  return describeAddressLine(summary);
}
