import dnsPacket from 'dns-packet';
import type { RecordType } from './resolver.js';

/**
 * The DNS wire codec (RFC 1035 §4) for transports that carry DNS messages themselves, such as DNS
 * over HTTPS: a query to bytes, bytes to a response. dns-packet does the encoding and decoding
 * (docs/edge.md says why it and not dns2); this file is the one place that knows its types.
 *
 * Bytes in and out are plain `Uint8Array`s. dns-packet works on Node's `Buffer`, which is the
 * builtin on Node and the `nodejs_compat` implementation on Workers (docs/edge.md).
 */

/** A message that is not a well-formed DNS message, or not an answer to the question asked. */
export class MalformedMessageError extends Error {
  override name = 'MalformedMessageError';
}

/** One resource record of the answer section, in the forms the transports hand out. */
export type AnswerRecord =
  | { name: string; type: 'A' | 'AAAA' | 'PTR' | 'NS' | 'CNAME'; ttl: number; data: string }
  | { name: string; type: 'TXT'; ttl: number; data: string }
  | { name: string; type: 'MX'; ttl: number; data: { exchange: string; priority: number } }
  /** Any other type (SOA, RRSIG, ...): kept so a chain can be told apart from noise, never read. */
  | { name: string; type: 'other'; ttl: number; data: undefined };

export interface DecodedResponse {
  id: number;
  /** RFC 1035 §4.1.1 RCODE, e.g. 0 NOERROR, 3 NXDOMAIN. */
  rcode: number;
  truncated: boolean;
  questions: { name: string; type: string }[];
  answers: AnswerRecord[];
}

/** RFC 1035 §2.3.4. */
const maxLabelBytes = 63;
const maxNameBytes = 255;
/** RFC 1035 §4.2.2 frames a message with a 16-bit length: no DNS message is longer. */
export const maxMessageBytes = 0xffff;
/** RFC 1035 §4.1.1: OPCODE 0 is a standard query. */
const rcodeMask = 0x0f;
/** RFC 2181 §8: a TTL with the most significant bit set is treated as zero. */
const maxTtl = 0x7fffffff;

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Lower case and without the root's trailing dot: names compare case-insensitively (RFC 4343). */
export function canonicalName(name: string): string {
  const lower = name.toLowerCase();
  return lower.length > 1 && lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** Throws unless `name` fits the wire: labels of 1 to 63 octets, 255 octets in all (RFC 1035 §2.3.4). */
function checkEncodable(name: string): void {
  const relative = name.endsWith('.') ? name.slice(0, -1) : name;
  if (relative === '') return;
  let wireBytes = 1;
  for (const label of relative.split('.')) {
    const bytes = utf8.encode(label).length;
    if (bytes === 0 || bytes > maxLabelBytes) {
      throw new MalformedMessageError(`DNS name ${name}: a label of ${bytes} octets`);
    }
    wireBytes += bytes + 1;
  }
  if (wireBytes > maxNameBytes) {
    throw new MalformedMessageError(`DNS name ${name} is over ${maxNameBytes} octets`);
  }
}

/**
 * A recursive query (RD set) for one question of class IN. `id` is 0 by default: RFC 8484 §4.1
 * asks DoH clients to use 0 so that equal queries are equal HTTP requests (cacheable).
 */
export function encodeQuery(name: string, type: RecordType, id = 0): Uint8Array {
  checkEncodable(name);
  const bytes = dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type, class: 'IN' }],
  });
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function ttlOf(ttl: number | undefined): number {
  return ttl === undefined || ttl > maxTtl ? 0 : ttl;
}

/** RFC 1035 §3.3.14 character-strings, joined without spaces (RFC 7208 §3.3), then read as UTF-8. */
function joinedText(chunks: unknown): string {
  const parts = (Array.isArray(chunks) ? chunks : [chunks]) as Uint8Array[];
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return utf8Decoder.decode(bytes);
}

function answerRecord(record: dnsPacket.Answer): AnswerRecord {
  const base = { name: canonicalName(record.name), ttl: ttlOf('ttl' in record ? record.ttl : 0) };
  switch (record.type) {
    case 'A':
    case 'AAAA':
    case 'PTR':
    case 'NS':
    case 'CNAME':
      return { ...base, type: record.type, data: canonicalName(record.data) };
    case 'TXT':
      return { ...base, type: 'TXT', data: joinedText(record.data) };
    case 'MX':
      return {
        ...base,
        type: 'MX',
        data: {
          exchange: canonicalName(record.data.exchange),
          priority: record.data.preference ?? 0,
        },
      };
    default:
      return { ...base, type: 'other', data: undefined };
  }
}

/**
 * Reads a response. Throws MalformedMessageError for anything that is not a whole DNS response:
 * too short, a query, cut short, a bad compression pointer (dns-packet's own checks), bytes past
 * its end.
 */
export function decodeResponse(bytes: Uint8Array): DecodedResponse {
  if (bytes.length > maxMessageBytes) throw new MalformedMessageError('message over 65535 octets');
  let message: dnsPacket.DecodedPacket;
  try {
    // A view, not a copy: dns-packet reads it with Buffer's methods.
    message = dnsPacket.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    throw new MalformedMessageError(`undecodable DNS message: ${(error as Error).message}`);
  }
  if (dnsPacket.decode.bytes !== bytes.length) {
    throw new MalformedMessageError('bytes after the end of the DNS message');
  }
  if (message.type !== 'response') throw new MalformedMessageError('a query, not a response');
  const flags = message.flags ?? 0;
  return {
    id: message.id ?? 0,
    rcode: flags & rcodeMask,
    truncated: (flags & dnsPacket.TRUNCATED_RESPONSE) !== 0,
    questions: (message.questions ?? []).map((question) => ({
      name: canonicalName(question.name),
      type: question.type,
    })),
    answers: (message.answers ?? []).map(answerRecord),
  };
}
