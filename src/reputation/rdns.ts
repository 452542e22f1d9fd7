import type { Resolver } from '../dns/index.js';
import type { Deadline } from './deadline.js';
import { reversedOctets } from './ipv4.js';
import { maxListedNames } from './result-limits.js';
import type { ReverseDns } from './result-schemas.js';
import { isSpecialUseName } from './targets.js';

/**
 * Reverse DNS of a sending address and forward-confirmed reverse DNS (FCrDNS, RFC 8601 §3's
 * "iprev"): the PTR names of the address, and whether any of them resolves back to it.
 */

export type { Fcrdns, ReverseDns } from './result-schemas.js';

/** Many PTR records on one address are a misconfiguration; confirming the first few is enough. */
const maxNamesConfirmed = 10;

export async function reverseDns(
  resolver: Resolver,
  address: string,
  deadline: Deadline,
): Promise<ReverseDns> {
  // RFC 1035 §3.5: the PTR of a.b.c.d lives at d.c.b.a.in-addr.arpa.
  const ptr = await deadline.race(
    resolver.query(`${reversedOctets(address)}.in-addr.arpa`, 'PTR', deadline.queryOptions),
    null,
  );
  if (ptr === null || ptr.status === 'timeout') return failed('no PTR answer in time');
  if (ptr.status === 'servfail' || ptr.status === 'refused')
    return failed(`PTR lookup ${ptr.status}`);
  if (ptr.status !== 'answer') return { ptr: '', names: [], fcrdns: 'none', confirmed: [] };

  const all = ptr.records.map((name) => name.toLowerCase().replace(/\.$/, ''));
  // Whoever runs the address's reverse zone chooses how many names it has.
  const names = all.slice(0, maxListedNames);
  const listed = all.length > names.length ? { names, names_total: all.length } : { names };
  // Anyone controlling an address's reverse zone can name `metadata.google.internal` in its PTR:
  // a special-use name is never looked up, and so never confirms.
  const forward = await Promise.all(
    names
      .slice(0, maxNamesConfirmed)
      .filter((name) => !isSpecialUseName(name))
      .map(async (name) => ({
        name,
        outcome: await deadline.race(resolver.query(name, 'A', deadline.queryOptions), null),
      })),
  );
  const confirmed = forward
    .filter(({ outcome }) => outcome?.status === 'answer' && outcome.records.includes(address))
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
