import type { DnsOutcome, RecordData, RecordType, Resolver } from '../dns/index.js';
import { createDeadline } from './deadline.js';
import { compareIpv4, ipv4ToNumber, numberToIpv4 } from './ipv4.js';
import { defaultDeadlineMs, expandSpf, type SpfExpansion, type SpfOptions } from './spf.js';
import type { DmarcPolicy, DmarcRecord, MailExchanger } from './result-schemas.js';

/**
 * Which IPv4 addresses send a domain's mail: those its SPF record authorises, and its MX hosts
 * (mail exchangers commonly send too, and an `mx` term would name them anyway). Alongside: the
 * MX list, the SPF evaluation and the DMARC record, all from one set of parallel lookups.
 */

export type { DmarcPolicy, DmarcRecord, MailExchanger } from './result-schemas.js';

/** A lookup of the domain's own records that gave no usable answer. */
export interface LookupFailure {
  name: string;
  type: RecordType;
  status: 'servfail' | 'refused' | 'timeout';
}

export interface SenderIps {
  domain: string;
  /** False when the domain's own lookups answer NXDOMAIN; `ips` and `mx` are then empty. */
  exists: boolean;
  /**
   * Sender IPs: single addresses `a.b.c.d`, ranges of at most 16 addresses (a /28 or longer)
   * written out address by address, larger ranges as `a.b.c.d/len`. Sorted by network address,
   * then prefix length; no duplicates. An address inside a listed larger range stays listed: it
   * was named on its own (an MX host, an `a` term) and is the one a DNSBL can be asked about.
   */
  ips: string[];
  mx: MailExchanger[];
  /** No MX records: the domain's own address stands in (RFC 5321 §5.1) as `mx`'s one entry. */
  implicitMx: boolean;
  spf: SpfExpansion;
  dmarc: DmarcRecord;
  /** MX, A and DMARC lookups that failed; the SPF evaluation reports its own in `spf.error`. */
  lookupFailures: LookupFailure[];
}

/** The largest range written out address by address: a /28. */
const maxExpandedRange = 16;

/**
 * Merges addresses and `a.b.c.d/len` networks into the `ips` form described on `SenderIps`.
 *
 * @example
 * senderIpList(['192.0.2.9', '198.51.100.0/24', '192.0.2.0/30'])
 * // ['192.0.2.0', '192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.9', '198.51.100.0/24']
 */
export function senderIpList(entries: readonly string[]): string[] {
  const networks = new Map<string, { start: number; prefix: number }>();
  for (const entry of entries) {
    const [address = '', length] = entry.split('/');
    const prefix = length === undefined ? 32 : Number(length);
    const size = 2 ** (32 - prefix);
    const start = Math.floor(ipv4ToNumber(address) / size) * size;
    if (size > maxExpandedRange) {
      networks.set(`${numberToIpv4(start)}/${prefix}`, { start, prefix });
      continue;
    }
    for (let offset = 0; offset < size; offset++) {
      networks.set(numberToIpv4(start + offset), { start: start + offset, prefix: 32 });
    }
  }
  return [...networks]
    .sort(([, a], [, b]) => a.start - b.start || a.prefix - b.prefix)
    .map(([text]) => text);
}

/**
 * RFC 7489 §6.6.3: of the TXT records at `_dmarc.<domain>`, those that start with the version tag
 * `v=DMARC1` count, and only exactly one is a policy. §6.4 takes DKIM's tag-list syntax, whose tag
 * names are case-sensitive (RFC 6376 §3.2), and §6.3 wants the value `DMARC1` matched precisely.
 */
const dmarcVersion = /^v[ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/;

/** §6.3 p tag; §6.4's ABNF lists its values as literals, which match in any case (RFC 5234). */
function dmarcPolicyOf(record: string): DmarcPolicy | null {
  for (const tag of record.split(';')) {
    const [name = '', value = ''] = tag.split('=').map((part) => part.trim());
    if (name !== 'p') continue;
    const policy = value.toLowerCase();
    return policy === 'none' || policy === 'quarantine' || policy === 'reject' ? policy : null;
  }
  return null;
}

function readDmarc(outcome: DnsOutcome<string>): DmarcRecord {
  const absent = { present: false, record: null, policy: null };
  switch (outcome.status) {
    case 'answer': {
      const records = outcome.records.filter((text) => dmarcVersion.test(text));
      const [record] = records;
      if (record === undefined) return { status: 'none', ...absent };
      if (records.length > 1) return { status: 'multiple', ...absent };
      return { status: 'found', present: true, record, policy: dmarcPolicyOf(record) };
    }
    case 'nxdomain':
    case 'nodata':
      return { status: 'none', ...absent };
    default:
      return { status: 'unavailable', ...absent };
  }
}

/**
 * RFC 7505: an MX of `.` (node:dns gives the root as '') says the domain takes no mail; there is
 * no host to look up, and no implicit MX either.
 */
function isNullMx(exchange: string): boolean {
  return exchange === '' || exchange === '.';
}

const timedOut = { status: 'timeout' } as const;

function addressesOf(outcome: DnsOutcome<string>): string[] {
  return outcome.status === 'answer' ? [...new Set(outcome.records)].sort(compareIpv4) : [];
}

/**
 * Discovers `domain`'s sender IPs. SPF, MX, A and DMARC are asked at once; the MX hosts' addresses
 * follow as soon as the MX answer is in. Lookups unanswered at the deadline count as timed out,
 * and the SPF evaluation keeps to a deadline of the same length.
 *
 * DMARC is read at `_dmarc.<domain>` only: finding the organizational domain's record for a
 * subdomain (RFC 7489 §6.6.3) would need the Public Suffix List.
 */
export async function discoverSenderIps(
  resolver: Resolver,
  domain: string,
  options: SpfOptions = {},
): Promise<SenderIps> {
  const name = domain.toLowerCase().replace(/\.$/, '');
  const deadline = createDeadline(options.deadlineMs ?? defaultDeadlineMs);
  const lookupFailures: LookupFailure[] = [];
  const ask = async <T extends RecordType>(
    queried: string,
    type: T,
  ): Promise<DnsOutcome<RecordData[T]>> => {
    const outcome = await deadline.race(resolver.query(queried, type), timedOut);
    const { status } = outcome;
    if (status === 'servfail' || status === 'refused' || status === 'timeout') {
      lookupFailures.push({ name: queried, type, status });
    }
    return outcome;
  };

  try {
    const [spf, mxOutcome, ownOutcome, dmarcOutcome] = await Promise.all([
      expandSpf(resolver, name, options),
      ask(name, 'MX'),
      ask(name, 'A'),
      ask(`_dmarc.${name}`, 'TXT'),
    ]);
    // NXDOMAIN says the name does not exist, whatever type was asked (RFC 2308 §2.1),
    // unless another of its lookups did find records.
    const exists =
      mxOutcome.status === 'answer' ||
      ownOutcome.status === 'answer' ||
      (mxOutcome.status !== 'nxdomain' && ownOutcome.status !== 'nxdomain');
    // RFC 5321 §5.1: with no MX records, the domain's own address is an implicit MX of priority 0.
    const implicitMx = exists && (mxOutcome.status === 'nodata' || mxOutcome.status === 'nxdomain');
    let mx: MailExchanger[] = [];
    if (implicitMx) {
      mx = [{ exchange: name, priority: 0, addresses: addressesOf(ownOutcome) }];
    } else if (exists && mxOutcome.status === 'answer') {
      const exchangers = [...mxOutcome.records].sort(
        (a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange),
      );
      mx = await Promise.all(
        exchangers.map(async ({ exchange, priority }) =>
          isNullMx(exchange)
            ? { exchange: '.', priority, addresses: [] }
            : { exchange, priority, addresses: addressesOf(await ask(exchange, 'A')) },
        ),
      );
    }
    return {
      domain: name,
      exists,
      ips: exists ? senderIpList([...spf.ip4, ...mx.flatMap((host) => host.addresses)]) : [],
      mx,
      implicitMx,
      spf,
      dmarc: readDmarc(dmarcOutcome),
      lookupFailures,
    };
  } finally {
    deadline.clear();
  }
}
