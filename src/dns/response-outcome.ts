import type { DnsOutcome, RecordData, RecordType } from './resolver.js';
import {
  answersQuery,
  type AnswerRecord,
  canonicalName,
  type DecodedResponse,
  decodeResponse,
  isTruncated,
  MalformedMessageError,
  messageId,
  rcodeOf,
} from './wire.js';

/**
 * What a response means for the question asked: one reading for every transport that carries DNS
 * messages (UDP, TCP, DoH), so the checks above cannot tell the transports apart; the outcomes
 * are the ones the c-ares transport reported before it (docs/decisions.md).
 */

/** RFC 1035 §4.1.1 RCODEs this file tells apart; the others are failures. */
const Rcode = { NOERROR: 0, NXDOMAIN: 3, REFUSED: 5 } as const;

/** RFC 1034 §3.6.2 leaves loop detection to resolvers; BIND and Unbound give up near here. */
const maxCnameChain = 16;

/**
 * Throws MalformedMessageError unless `response` answers the query this transport sent: ID 0
 * (RFC 8484 §4.1), the same question if one is echoed, not truncated (an HTTP response carries
 * any DNS message whole, so TC means a broken server).
 */
function checkAnswers(response: DecodedResponse, name: string, type: RecordType, id: number): void {
  if (response.id !== id) throw new MalformedMessageError(`response ID ${response.id}, not ${id}`);
  if (response.truncated) throw new MalformedMessageError('truncated response (TC)');
  if (response.questions.length > 1) throw new MalformedMessageError('several questions');
  const question = response.questions[0];
  if (question && (question.name !== canonicalName(name) || question.type !== type)) {
    throw new MalformedMessageError(
      `answers ${question.name} ${question.type}, not ${name} ${type}`,
    );
  }
}

/**
 * The name the answer ends at, following the CNAMEs of `name` in the answer section as c-ares did
 * for every record type (RFC 1034 §3.6.2, and RFC 2317 puts PTR records behind CNAMEs), and the
 * least TTL along the chain: the answer holds only as long as every alias in it.
 */
function endOfChain(
  answers: readonly AnswerRecord[],
  name: string,
): { owner: string; ttl: number } {
  let owner = canonicalName(name);
  let ttl = Infinity;
  for (let links = 0; ; links++) {
    const alias = answers.find((record) => record.type === 'CNAME' && record.name === owner);
    if (!alias) return { owner, ttl };
    if (links === maxCnameChain) throw new MalformedMessageError(`CNAME chain over ${links} links`);
    owner = alias.data as string;
    ttl = Math.min(ttl, alias.ttl);
  }
}

type Records<T extends RecordType> = RecordData[T][];

/** The records of type `type` owned by `owner`; records about any other name are ignored. */
function recordsAt<T extends RecordType>(
  answers: readonly AnswerRecord[],
  owner: string,
  type: T,
): { records: Records<T>; ttl: number } {
  const matching = answers.filter((record) => record.type === type && record.name === owner);
  return {
    records: matching.map((record) => record.data) as Records<T>,
    ttl: Math.min(...matching.map((record) => record.ttl)),
  };
}

/**
 * The outcome of `response` to the query `name` `type` with `id`. Throws MalformedMessageError for
 * a response that does not answer that query; the transport decides what a malformed one costs.
 */
export function outcomeOf<T extends RecordType>(
  response: DecodedResponse,
  name: string,
  type: T,
  id = 0,
): DnsOutcome<RecordData[T]> {
  checkAnswers(response, name, type, id);
  const failure = failureOf(response.rcode);
  if (failure) return failure;
  // A CNAME query is answered by the alias itself, not by what it points to.
  const chain =
    type === 'CNAME'
      ? { owner: canonicalName(name), ttl: Infinity }
      : endOfChain(response.answers, name);
  const found = recordsAt(response.answers, chain.owner, type);
  if (found.records.length === 0) return { status: 'nodata' };
  return { status: 'answer', records: found.records, ttl: Math.min(found.ttl, chain.ttl) };
}

const outcomeByRcode = {
  // RFC 6604 §3: with aliases in the answer, NXDOMAIN is about the last name of the chain.
  [Rcode.NXDOMAIN]: { status: 'nxdomain' },
  [Rcode.REFUSED]: { status: 'refused' },
} as const satisfies Record<number, DnsOutcome<never>>;
const servfail = { status: 'servfail' } as const;

/** The outcome an RCODE alone decides, or undefined for NOERROR, whose records decide it. */
function failureOf(rcode: number): DnsOutcome<never> | undefined {
  if (rcode === Rcode.NOERROR) return undefined;
  // SERVFAIL, and as the c-ares transport reported them FORMERR, NOTIMP and the rest.
  return outcomeByRcode[rcode as keyof typeof outcomeByRcode] ?? servfail;
}

/**
 * What a message that came back for `query` (as `encodeQuery` wrote it) says: the outcome, or
 * `mismatch` when it answers another query (another ID or question; `echoRequired` as in
 * `answersQuery`), `truncated` when the answer did not fit (TC), `malformed` when it is no
 * well-formed answer. Checked on the octets first, so
 * a stray or forged datagram costs no decoding, and an RCODE other than NOERROR (most DNSBL
 * answers are NXDOMAIN) is read from the header alone: nothing past the question is decoded then.
 * Nothing is thrown for any message.
 */
export function readResponse<T extends RecordType>(
  query: Uint8Array,
  response: Uint8Array,
  name: string,
  type: T,
  echoRequired = true,
): DnsOutcome<RecordData[T]> | 'mismatch' | 'truncated' | 'malformed' {
  if (!answersQuery(query, response, echoRequired)) return 'mismatch';
  if (isTruncated(response)) return 'truncated';
  const failure = failureOf(rcodeOf(response));
  if (failure) return failure;
  try {
    return outcomeOf(decodeResponse(response), name, type, messageId(query));
  } catch (error) {
    if (error instanceof MalformedMessageError) return 'malformed';
    throw error;
  }
}
