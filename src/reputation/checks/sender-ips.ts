import type { DnsOutcome, MxRecord, RecordData, RecordType, Resolver } from '../../dns/index.js';
import { isSpecialUseName } from '../../lib/index.js';
import { createDeadline, type Deadline, publicIpv4Of, publicIpv6Of } from '../lookups/index.js';
import {
  type AppliedDmarc,
  type DmarcLookup,
  type DmarcRecord,
  applicableDmarc,
  organizationalDomain,
  readDmarcLookup,
} from './dmarc.js';
import type { DmarcReading } from './dmarc-record.js';
import { type MailExchanger, maxAddressesPerHost } from '../results/index.js';
import { type SenderAddresses, senderAddresses } from './sender-addresses.js';
import { defaultDeadlineMs, expandSpf, type SpfExpansion, type SpfOptions } from '../spf/index.js';

/**
 * Which addresses send a domain's mail, IPv4 and IPv6: those its SPF record authorises, and its
 * MX hosts (mail exchangers commonly send too, and an `mx` term would name them anyway), A and
 * AAAA. Alongside: the MX list, the SPF evaluation and the DMARC record, all from one set of
 * parallel lookups. Only public addresses are kept, and names under special-use suffixes are not
 * looked up.
 */

export type { MailExchanger } from '../results/index.js';

/** A lookup of the domain's own records that gave no usable answer. */
export interface LookupFailure {
  name: string;
  type: RecordType;
  status: 'servfail' | 'refused' | 'timeout';
}

export interface SenderIps extends SenderAddresses {
  domain: string;
  /** The MX hosts looked up, lowest preference first: at most `maxMxHosts`. */
  mx: MailExchanger[];
  /** MX records the domain publishes. */
  mxTotal: number;
  /** No MX records: the domain's own address stands in (RFC 5321 §5.1) as `mx`'s one entry. */
  implicitMx: boolean;
  spf: SpfExpansion;
  dmarc: DmarcRecord;
  /** The DMARC record as read, every tag (dmarc-record.ts): the mail check's reading too. */
  dmarcReading: DmarcReading | null;
  /** TXT, MX, A and DMARC lookups that failed; the SPF evaluation reports its own in `spf.error`. */
  lookupFailures: LookupFailure[];
}

/**
 * MX hosts looked up, the most preferred first. RFC 7208 §4.6.4 allows an `mx` term 10 address
 * lookups; a domain's mail goes to its most preferred hosts, and a domain publishing a thousand
 * of them must not cost a thousand queries.
 */
export const maxMxHosts = 10;

/**
 * RFC 7505: an MX of `.` (the transports write the root so; c-ares wrote '') says the domain
 * takes no mail; there is no host to look up, and no implicit MX either.
 */
function isNullMx(exchange: string): boolean {
  return exchange === '' || exchange === '.';
}

const timedOut = { status: 'timeout' } as const;

/** A host's public addresses from its A and AAAA answers: IPv4 first, then IPv6. */
function publicAddressesOf(a: DnsOutcome<string>, aaaa: DnsOutcome<string>): string[] {
  return [...publicIpv4Of(a), ...publicIpv6Of(aaaa)];
}

function exchangerOf(exchange: string, priority: number, addresses: string[]): MailExchanger {
  return {
    exchange,
    priority,
    addresses: addresses.slice(0, maxAddressesPerHost),
    ...(addresses.length > maxAddressesPerHost ? { addresses_total: addresses.length } : {}),
  };
}

/** The domain's own `_dmarc` record, or failing that its organisational domain's (dmarc.ts). */
async function discoverDmarc(
  name: string,
  ask: (queried: string) => Promise<DnsOutcome<string>>,
): Promise<AppliedDmarc> {
  const organizational = organizationalDomain(name);
  const fallback = organizational !== null && organizational !== name ? organizational : null;
  // Both at once: the fallback costs a query, waiting for the first would cost a round trip.
  const [own, inherited] = await Promise.all([
    ask(`_dmarc.${name}`),
    fallback === null ? undefined : ask(`_dmarc.${fallback}`),
  ]);
  const organizationalLookup: { domain: string; lookup: DmarcLookup } | null =
    fallback === null || inherited === undefined
      ? null
      : { domain: fallback, lookup: readDmarcLookup(inherited) };
  return applicableDmarc(name, readDmarcLookup(own), organizationalLookup);
}

/**
 * Discovers `domain`'s sender IPs. SPF, MX, A and DMARC are asked at once; the MX hosts' addresses
 * follow as soon as the MX answer is in. Lookups unanswered at the deadline count as timed out,
 * and the SPF evaluation keeps to a deadline of the same length (within `options.within`, the
 * check's own, when given).
 */
export async function discoverSenderIps(
  resolver: Resolver,
  domain: string,
  options: SpfOptions = {},
): Promise<SenderIps> {
  const name = domain.toLowerCase().replace(/\.$/, '');
  const deadlineMs = options.deadlineMs ?? defaultDeadlineMs;
  const deadline: Deadline = createDeadline(deadlineMs, options.within);
  const lookupFailures: LookupFailure[] = [];
  const ask = async <T extends RecordType>(
    queried: string,
    type: T,
  ): Promise<DnsOutcome<RecordData[T]>> => {
    const query = resolver.query(queried, type, deadline.queryOptions);
    const outcome = await deadline.race(query, timedOut);
    const { status } = outcome;
    if (status === 'servfail' || status === 'refused' || status === 'timeout') {
      lookupFailures.push({ name: queried, type, status });
    }
    return outcome;
  };

  const hostAddresses: string[][] = [];
  const lookUpExchanger = async ({ exchange, priority }: MxRecord): Promise<MailExchanger> => {
    if (isNullMx(exchange)) return { exchange: '.', priority, addresses: [] };
    const host = exchange.toLowerCase().replace(/\.$/, '');
    // A host under a special-use suffix is listed as published, never looked up.
    const addresses = isSpecialUseName(host)
      ? []
      : publicAddressesOf(...(await Promise.all([ask(host, 'A'), ask(host, 'AAAA')])));
    hostAddresses.push(addresses);
    return exchangerOf(host, priority, addresses);
  };

  try {
    const [spf, mxOutcome, ownA, ownAaaa, dmarc] = await Promise.all([
      expandSpf(resolver, name, { deadlineMs, within: deadline }),
      ask(name, 'MX'),
      ask(name, 'A'),
      ask(name, 'AAAA'),
      discoverDmarc(name, (queried) => ask(queried, 'TXT')),
    ]);
    const ownAddresses = publicAddressesOf(ownA, ownAaaa);
    // RFC 5321 §5.1: with no MX records, the domain's own address is an implicit MX of priority 0.
    const noMx = mxOutcome.status === 'nodata' || mxOutcome.status === 'nxdomain';
    const implicitMx = noMx && ownAddresses.length > 0;
    let mx: MailExchanger[] = [];
    if (implicitMx) {
      mx = [exchangerOf(name, 0, ownAddresses)];
      hostAddresses.push(ownAddresses);
    } else if (mxOutcome.status === 'answer') {
      const exchangers = [...mxOutcome.records]
        .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange))
        .slice(0, maxMxHosts);
      mx = await Promise.all(exchangers.map(lookUpExchanger));
    }

    return {
      domain: name,
      ...senderAddresses([...spf.ip4, ...spf.ip6, ...hostAddresses.flat()]),
      mx,
      mxTotal: mxOutcome.status === 'answer' ? mxOutcome.records.length : 0,
      implicitMx,
      spf,
      dmarc: dmarc.shown,
      dmarcReading: dmarc.reading,
      lookupFailures,
    };
  } finally {
    deadline.clear();
  }
}
