import type { Resolver } from '../dns/index.js';
import type { Deadline } from './deadline.js';
import { reversedOctets } from './ipv4.js';
import type { ReverseDns } from './result-schemas.js';

/**
 * Reverse DNS of a sending address and forward-confirmed reverse DNS (FCrDNS, RFC 8601 §3's
 * "iprev"): the PTR names of the address, and whether any of them resolves back to it.
 */

/** Many PTR records on one address are a misconfiguration; confirming the first few is enough. */
const maxNamesConfirmed = 10;

export type { Fcrdns, ReverseDns } from './result-schemas.js';

export async function reverseDns(
  resolver: Resolver,
  address: string,
  deadline: Deadline,
): Promise<ReverseDns> {
  // RFC 1035 §3.5: the PTR of a.b.c.d lives at d.c.b.a.in-addr.arpa.
  const ptr = await deadline.race(
    resolver.query(`${reversedOctets(address)}.in-addr.arpa`, 'PTR'),
    null,
  );
  if (ptr === null || ptr.status === 'timeout') return failed('no PTR answer in time');
  if (ptr.status === 'servfail' || ptr.status === 'refused')
    return failed(`PTR lookup ${ptr.status}`);
  if (ptr.status !== 'answer') return { ptr: '', names: [], fcrdns: 'none', confirmed: [] };

  const names = ptr.records.map((name) => name.toLowerCase().replace(/\.$/, ''));
  const forward = await Promise.all(
    names.slice(0, maxNamesConfirmed).map(async (name) => ({
      name,
      outcome: await deadline.race(resolver.query(name, 'A'), null),
    })),
  );
  const confirmed = forward
    .filter(({ outcome }) => outcome?.status === 'answer' && outcome.records.includes(address))
    .map(({ name }) => name);
  const first = names[0] ?? '';
  if (confirmed.length > 0) return { ptr: first, names, fcrdns: 'pass', confirmed };
  const unanswered = forward.some(
    ({ outcome }) =>
      outcome === null || ['timeout', 'servfail', 'refused'].includes(outcome.status),
  );
  return unanswered
    ? {
        ptr: first,
        names,
        fcrdns: 'error',
        confirmed,
        error: 'forward lookup gave no usable answer',
      }
    : { ptr: first, names, fcrdns: 'fail', confirmed };
}

function failed(error: string): ReverseDns {
  return { ptr: '', names: [], fcrdns: 'error', confirmed: [], error };
}
