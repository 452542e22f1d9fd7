import type { Resolver } from '../../dns/index.js';
import {
  canonicalIpv6,
  isIpv6,
  isSpecialUseName,
  parseIpv6,
  reversedNibbles,
  reversedOctets,
} from '../../lib/index.js';
import type { Deadline } from '../lookups/index.js';
import { isHostName } from '../targets/index.js';
import { maxListedNames, type ReverseDns } from '../results/index.js';

/**
 * Reverse DNS of a sending address and forward-confirmed reverse DNS (FCrDNS, RFC 8601 §3's
 * "iprev"): the PTR names of the address, and whether any of them resolves back to it (through A
 * for an IPv4 address, AAAA for an IPv6 one).
 */

export type { Fcrdns, ReverseDns } from '../results/index.js';

/** Many PTR records on one address are a misconfiguration; confirming the first few is enough. */
const maxNamesConfirmed = 10;

/**
 * Where an address's PTR records live: RFC 1035 §3.5, `d.c.b.a.in-addr.arpa` for `a.b.c.d`;
 * RFC 3596 §2.5, the 32 reversed nibbles under `ip6.arpa` for an IPv6 address.
 */
export function reverseName(address: string): string {
  return isIpv6(address)
    ? `${reversedNibbles(address)}.ip6.arpa`
    : `${reversedOctets(address)}.in-addr.arpa`;
}

/** Whether a forward answer holds the address; an AAAA record may be written in any RFC 4291 form. */
function includesAddress(records: readonly string[], address: string): boolean {
  if (!isIpv6(address)) return records.includes(address);
  const wanted = canonicalIpv6(address);
  return records.some((record) => parseIpv6(record)?.toRFC5952String() === wanted);
}

export async function reverseDns(
  resolver: Resolver,
  address: string,
  deadline: Deadline,
): Promise<ReverseDns> {
  const ptr = await deadline.race(
    resolver.query(reverseName(address), 'PTR', deadline.queryOptions),
    null,
  );
  const forwardType = isIpv6(address) ? 'AAAA' : 'A';
  if (ptr === null || ptr.status === 'timeout') return failed('no PTR answer in time');
  if (ptr.status === 'servfail' || ptr.status === 'refused')
    return failed(`PTR lookup ${ptr.status}`);
  if (ptr.status !== 'answer') return { ptr: '', names: [], fcrdns: 'none', confirmed: [] };

  const all = ptr.records.map((name) => name.toLowerCase().replace(/\.$/, ''));
  // Whoever runs the address's reverse zone chooses how many names it has.
  const names = all.slice(0, maxListedNames);
  const listed = all.length > names.length ? { names, names_total: all.length } : { names };
  // Anyone controlling an address's reverse zone can name `metadata.google.internal` or
  // `<script>…` in its PTR: a special-use name or one that is not a host name is never looked
  // up, and so never confirms.
  const forward = await Promise.all(
    names
      .slice(0, maxNamesConfirmed)
      .filter((name) => isHostName(name) && !isSpecialUseName(name))
      .map(async (name) => ({
        name,
        outcome: await deadline.race(
          resolver.query(name, forwardType, deadline.queryOptions),
          null,
        ),
      })),
  );
  const confirmed = forward
    .filter(
      ({ outcome }) => outcome?.status === 'answer' && includesAddress(outcome.records, address),
    )
    .map(({ name }) => name);
  const first = names[0] ?? '';
  if (confirmed.length > 0) return { ptr: first, ...listed, fcrdns: 'pass', confirmed };
  const unanswered = forward.some(
    ({ outcome }) =>
      outcome === null || ['timeout', 'servfail', 'refused'].includes(outcome.status),
  );
  return unanswered
    ? {
        ptr: first,
        ...listed,
        fcrdns: 'error',
        confirmed,
        error: 'forward lookup gave no usable answer',
      }
    : { ptr: first, ...listed, fcrdns: 'fail', confirmed };
}

function failed(error: string): ReverseDns {
  return { ptr: '', names: [], fcrdns: 'error', confirmed: [], error };
}
