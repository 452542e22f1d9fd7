// dns-packet's own dependency, named as wire.ts names it (docs/edge.md).
import { Buffer } from 'buffer';
import dnsPacket from 'dns-packet';
import { type DohExchange, type ExchangeResult, fetchExchange } from './doh-exchange.js';
import { canonicalName } from './wire.js';

/**
 * TLSA records (RFC 6698 §2) with the DNSSEC status the resolver reports, for DANE (RFC 7672),
 * over DNS over HTTPS. The Resolver contract carries neither the TLSA type nor the AD bit, and
 * needs neither for anything else, so this is a lookup of its own. RFC 8484 carries the whole
 * DNS message, header bits included: the query sets AD, asking the resolver to say whether it
 * validated (RFC 6840 §5.7), and DO in EDNS0 (RFC 3225), which some resolvers want before they
 * set AD; the answer's AD bit is `authenticated` (RFC 4035 §3.2.3). This is what lets Workers,
 * which reach DNS through `fetch` alone, report DANE as Node does (docs/mail.md, "DANE").
 *
 * It sits beside wire.ts rather than in it: wire.ts reads the record types every check asks for,
 * and a TLSA answer is read by the TLSA lookups only, this one and Node's over UDP
 * (src/node/probes/tlsa-lookup.ts), which share its query and its reading.
 */

export interface TlsaData {
  usage: number;
  selector: number;
  matching_type: number;
  /** The certificate association data, hex. */
  data: string;
}

export type TlsaOutcome =
  | { status: 'answer'; records: TlsaData[]; authenticated: boolean }
  | { status: 'nxdomain' | 'nodata'; authenticated: boolean }
  | { status: 'servfail' | 'refused' | 'timeout' };

/** TLSA records at a name, with the AD bit of the resolver's answer; ends when `signal` aborts. */
export type TlsaLookup = (name: string, signal: AbortSignal) => Promise<TlsaOutcome>;

/** RFC 8467 §4.1: the EDNS0 payload size the UDP lookup announces; over HTTP it is only a field. */
const udpPayloadSize = 1232;
/** RFC 1035 §4.1.1: the RCODE is the low four bits of the flags. */
const rcodeMask = 0x0f;

/**
 * A TLSA query for `name` with RD and AD set and an OPT record with DO (RFC 6891 §6.1.3). `id` is
 * 0 by default, as RFC 8484 §4.1 asks of DoH clients.
 */
export function encodeTlsaQuery(name: string, id = 0): Uint8Array {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA,
    questions: [{ type: 'TLSA', name }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: dnsPacket.DNSSEC_OK,
        flag_do: true,
        options: [],
      },
    ],
  });
}

/**
 * What a response to `encodeTlsaQuery(name, id)` says: the records of `name` (or of the end of
 * its CNAME chain in the answer, RFC 1034 §3.6.2) with the AD bit; `truncated` when TC is set;
 * `servfail` for a message that does not answer that query. `echoRequired` false accepts a
 * response that echoes no question, where the channel pairs it with the query (HTTP).
 */
export function readTlsaAnswer(
  bytes: Uint8Array,
  name: string,
  id = 0,
  echoRequired = true,
): TlsaOutcome | 'truncated' {
  let packet: dnsPacket.DecodedPacket;
  try {
    packet = dnsPacket.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    return { status: 'servfail' };
  }
  const flags = packet.flags ?? 0;
  const [question, ...more] = packet.questions ?? [];
  // RFC 5452 §3: only an answer to this ID and question counts. Over HTTP the exchange already
  // pairs them, but a response about another question is still no answer to this one.
  if (
    packet.type !== 'response' ||
    packet.id !== id ||
    more.length > 0 ||
    (question === undefined && echoRequired) ||
    (question !== undefined &&
      (canonicalName(question.name) !== canonicalName(name) || question.type !== 'TLSA'))
  ) {
    return { status: 'servfail' };
  }
  if (flags & dnsPacket.TRUNCATED_RESPONSE) return 'truncated';
  const authenticated = (flags & dnsPacket.AUTHENTIC_DATA) !== 0;
  const rcode = flags & rcodeMask;
  if (rcode === 3) return { status: 'nxdomain', authenticated };
  if (rcode === 5) return { status: 'refused' };
  if (rcode !== 0) return { status: 'servfail' };
  const owners = new Set([canonicalName(name)]);
  for (const record of packet.answers ?? []) {
    if (record.type === 'CNAME' && owners.has(canonicalName(record.name)))
      owners.add(canonicalName(String(record.data)));
  }
  const records = (packet.answers ?? [])
    .filter((record) => record.type === 'TLSA' && owners.has(canonicalName(record.name)))
    .map((record) => {
      const data = (record as dnsPacket.TlsaAnswer).data;
      return {
        usage: data.usage,
        selector: data.selector,
        matching_type: data.matchingType,
        data: Buffer.from(data.certificate).toString('hex'),
      };
    });
  return records.length === 0
    ? { status: 'nodata', authenticated }
    : { status: 'answer', records, authenticated };
}

export interface DohTlsaOptions {
  /** The DoH endpoints (DOH_URL), asked in order until one answers. */
  endpoints: readonly string[];
  /** For one exchange (DNS_TIMEOUT_MS). */
  timeoutMs: number;
  /** How one POST is sent: the runtime's `fetch` unless given (Node gives its HTTP/2 sessions). */
  exchange?: DohExchange;
  /**
   * Lookups of one check (one `signal`) on the wire at once; unbounded when absent. Workers give
   * a request six connections, which the check's other DNS queries already fill (docs/edge.md,
   * "Limits of the Workers platform"): a check's TLSA lookups there go one at a time.
   */
  maxPerCheck?: number;
}

/**
 * The lookup over RFC 8484 POSTs: each endpoint in order, one exchange each within `timeoutMs`,
 * all within the check's signal; the first DNS answer decides. An endpoint that answers no DNS
 * message (an HTTP error, bytes that are not one) is passed over as a silent one is; when every
 * endpoint did one or the other, the outcome is `servfail` if any answered badly, else `timeout`.
 */
export function createDohTlsaLookup(options: DohTlsaOptions): TlsaLookup {
  const lookup = dohTlsaLookup(options);
  const max = options.maxPerCheck;
  if (max === undefined) return lookup;
  // Keyed by the check's signal, so one check waits only for its own lookups: a request's
  // promises are never settled by another's (docs/edge.md, "One app per I/O owner").
  const turns = new WeakMap<AbortSignal, { running: number; waiting: (() => void)[] }>();
  return async (name, signal) => {
    let turn = turns.get(signal);
    if (!turn) turns.set(signal, (turn = { running: 0, waiting: [] }));
    if (turn.running >= max) await new Promise<void>((go) => turn.waiting.push(go));
    turn.running++;
    try {
      return await lookup(name, signal);
    } finally {
      turn.running--;
      turn.waiting.shift()?.();
    }
  };
}

function dohTlsaLookup(options: DohTlsaOptions): TlsaLookup {
  const exchange = options.exchange ?? fetchExchange();
  return async (name, signal) => {
    let query: Uint8Array;
    try {
      query = encodeTlsaQuery(name);
    } catch {
      // A name the wire cannot carry, as the DoH transport answers such a query.
      return { status: 'servfail' };
    }
    let answeredBadly = false;
    for (const endpoint of options.endpoints) {
      if (signal.aborted) break;
      const result = await exchangeOnce(exchange, endpoint, query, options.timeoutMs, signal);
      if (result === 'no-answer') continue;
      if (result === 'bad-answer') {
        answeredBadly = true;
        continue;
      }
      const outcome = readTlsaAnswer(result, name, 0, false);
      // An HTTP response carries a message whole: TC is a broken endpoint (RFC 8484 §6).
      if (outcome === 'truncated') {
        answeredBadly = true;
        continue;
      }
      return outcome;
    }
    return answeredBadly ? { status: 'servfail' } : { status: 'timeout' };
  };
}

/** One exchange, given up (as `no-answer`) at `timeoutMs` or when `signal` aborts. */
function exchangeOnce(
  exchange: DohExchange,
  endpoint: string,
  query: Uint8Array,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ExchangeResult> {
  return new Promise((resolve) => {
    let cancel = () => {};
    let settled = false;
    const finish = (result: ExchangeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', giveUp);
      resolve(result);
    };
    const giveUp = () => {
      cancel();
      finish('no-answer');
    };
    const timer = setTimeout(giveUp, timeoutMs);
    signal.addEventListener('abort', giveUp, { once: true });
    cancel = exchange(endpoint, query, { exchanged: finish });
    if (signal.aborted) giveUp();
  });
}
