import type {
  DnsOutcome,
  QueryOptions,
  RecordData,
  RecordType,
  Resolver,
} from '../../dns/index.js';
import { isSpecialUseName } from '../../lib/index.js';
import type { Deadline } from './deadline.js';

/**
 * The DNS as one check sees it when it follows names taken from DNS data (SPF terms, MX hosts,
 * CNAME targets, name servers, pool samples): data anyone can publish, so anyone can make it
 * large or point it inward.
 *
 * - A name under a special-use suffix (`.local`, `.internal`, `localhost`, ...) is never asked:
 *   it answers NXDOMAIN, as it would in public DNS, and the service's own network is not queried.
 * - Every query counts against the check's budget; past it, a query answers `timeout` unasked and
 *   `exhausted` says so. The DNSBL queries of a check do not go through here: their number is
 *   fixed by the zone list and the addresses checked, not by the caller.
 * - Every query carries the check's deadline (signal and fair share) and is given up when it
 *   passes; after it, nothing more is asked.
 */
export interface CheckDns extends Resolver {
  /** Queries asked so far (names never asked are not counted). */
  readonly asked: number;
  /** True once a query was refused for want of budget. */
  readonly exhausted: boolean;
}

const timedOut = { status: 'timeout' } as const;
const nonexistent = { status: 'nxdomain' } as const;

export function createCheckDns(
  resolver: Resolver,
  deadline: Deadline,
  maxQueries: number,
): CheckDns {
  let asked = 0;
  let exhausted = false;
  return {
    query<T extends RecordType>(
      name: string,
      type: T,
      options?: QueryOptions,
    ): Promise<DnsOutcome<RecordData[T]>> {
      if (isSpecialUseName(name.toLowerCase().replace(/\.$/, ''))) {
        return Promise.resolve(nonexistent);
      }
      if (deadline.expired) return Promise.resolve(timedOut);
      if (asked >= maxQueries) {
        exhausted = true;
        return Promise.resolve(timedOut);
      }
      asked++;
      // A shorter deadline of the same check passes its own options, which win.
      const outcome = resolver.query(name, type, { ...deadline.queryOptions, ...options });
      return deadline.race(outcome, timedOut);
    },
    get asked() {
      return asked;
    },
    get exhausted() {
      return exhausted;
    },
  };
}
