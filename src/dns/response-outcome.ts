import type { DnsOutcome, RecordData, RecordType } from './resolver.js';
import {
  type AnswerRecord,
  canonicalName,
  type DecodedResponse,
  MalformedMessageError,
} from './wire.js';

/**
 * What a decoded response means for the question asked: the same outcomes, records and TTLs the
 * c-ares transport reports, so the checks above cannot tell the transports apart.
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
 * The name the answer ends at, following the CNAMEs of `name` in the answer section as c-ares does
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
  switch (response.rcode) {
    case Rcode.NOERROR:
      break;
    case Rcode.NXDOMAIN:
      // RFC 6604 §3: with aliases in the answer, NXDOMAIN is about the last name of the chain.
      return { status: 'nxdomain' };
    case Rcode.REFUSED:
      return { status: 'refused' };
    default:
      // SERVFAIL, and as the c-ares transport reports them FORMERR, NOTIMP and the rest.
      return { status: 'servfail' };
  }
  // A CNAME query is answered by the alias itself, not by what it points to.
  const chain =
    type === 'CNAME'
      ? { owner: canonicalName(name), ttl: Infinity }
      : endOfChain(response.answers, name);
  const found = recordsAt(response.answers, chain.owner, type);
  if (found.records.length === 0) return { status: 'nodata' };
  return { status: 'answer', records: found.records, ttl: Math.min(found.ttl, chain.ttl) };
}
