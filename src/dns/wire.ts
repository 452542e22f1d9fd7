// dns-packet's own dependency, named here rather than taken from the global scope: the builtin on
// Node, `nodejs_compat`'s on Workers (docs/edge.md).
import { Buffer } from 'buffer';
import dnsPacket from 'dns-packet';
import { utf8 } from '../lib/index.js';
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
/** RFC 1035 §4.1.1: the RCODE is the low four bits of the flags. */
const rcodeMask = 0x0f;
/** RFC 2181 §8: a TTL with the most significant bit set is treated as zero. */
const maxTtl = 0x7fffffff;

const utf8Decoder = new TextDecoder();

/** Lower case and without the root's trailing dot: names compare case-insensitively (RFC 4343). */
export function canonicalName(name: string): string {
  const lower = name.toLowerCase();
  return lower.length > 1 && lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** RFC 1035 §3.2.2 and RFC 3596 §2.1: the TYPE codes of the questions the service asks. */
const typeCodes: Record<RecordType, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
};
/** RFC 1035 §3.2.4: CLASS IN. */
const classIn = 1;
/** RFC 6891 §6.1.2: an OPT record without options takes 11 octets; its TYPE is 41. */
const optBytes = 11;
const optType = 41;
/** RFC 1035 §4.1.1: RD is the lowest bit of octet 2. */
const rdBit = 0x01;
const dot = 0x2e;

/** Whether every character of `text` is ASCII: then it is its own UTF-8, octet for character. */
function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) > 0x7f) return false;
  }
  return true;
}

function checkLabel(name: string, octets: number): void {
  if (octets === 0 || octets > maxLabelBytes) {
    throw new MalformedMessageError(`DNS name ${name}: a label of ${octets} octets`);
  }
}

/**
 * A recursive query (RD set) for one question of class IN. `id` is 0 by default: RFC 8484 §4.1
 * asks DoH clients to use 0 so that equal queries are equal HTTP requests (cacheable). With
 * `udpPayloadSize`, an EDNS0 OPT record (RFC 6891 §6.1.2) tells the server how large a UDP
 * answer the client takes before it must truncate (TC). Throws MalformedMessageError for a name
 * the wire cannot carry: labels are 1 to 63 octets, a name 255 in all (RFC 1035 §2.3.4).
 *
 * Written here rather than by dns-packet: a query is a header, the name's labels and four
 * octets (RFC 1035 §4.1), every query the service sends is one, and dns-packet's general
 * encoder cost several times as much per query (docs/benchmarks.md). test/dns/wire.test.ts
 * checks these are dns-packet's bytes.
 */
export function encodeQuery(
  name: string,
  type: RecordType,
  id = 0,
  udpPayloadSize?: number,
): Uint8Array {
  const relative = name.endsWith('.') ? name.slice(0, -1) : name;
  // Labels as UTF-8, as dns-packet writes them; a service name is ASCII (IDNA) but input may not be.
  const octets = isAscii(relative) ? undefined : utf8.encode(relative);
  const length = octets ? octets.length : relative.length;
  // A length octet per label (a dot's place, and the first label's), and the root's zero.
  const nameBytes = length === 0 ? 1 : length + 2;
  if (nameBytes > maxNameBytes) {
    throw new MalformedMessageError(`DNS name ${name} is over ${maxNameBytes} octets`);
  }
  const edns = udpPayloadSize !== undefined;
  const message = new Uint8Array(headerBytes + nameBytes + 4 + (edns ? optBytes : 0));
  message[0] = id >> 8;
  message[1] = id & 0xff;
  message[2] = rdBit;
  message[5] = 1;
  if (edns) message[11] = 1;
  let lengthAt = headerBytes;
  let at = headerBytes + 1;
  for (let index = 0; index < length; index++) {
    const octet = octets ? octets[index]! : relative.charCodeAt(index);
    if (octet !== dot) {
      message[at++] = octet;
      continue;
    }
    checkLabel(name, at - lengthAt - 1);
    message[lengthAt] = at - lengthAt - 1;
    lengthAt = at++;
  }
  if (length > 0) {
    checkLabel(name, at - lengthAt - 1);
    message[lengthAt] = at - lengthAt - 1;
    // The root's zero is already there.
    at++;
  }
  const code = typeCodes[type];
  message[at++] = code >> 8;
  message[at++] = code & 0xff;
  message[at++] = 0;
  message[at++] = classIn;
  if (edns) {
    // The root name (0), TYPE OPT, CLASS the payload size, TTL 0 (no extended RCODE, version 0,
    // DO clear), RDLENGTH 0: zeros but for the TYPE and CLASS.
    message[at + 2] = optType;
    message[at + 3] = udpPayloadSize >> 8;
    message[at + 4] = udpPayloadSize & 0xff;
  }
  return message;
}

/** RFC 1035 §4.1.1: the header's 12 octets; the flags are octets 2 and 3, QDCOUNT octets 4-5. */
const headerBytes = 12;
const qrBit = 0x80;
const opcodeBits = 0x78;
const tcBit = 0x02;

/** The message's ID (RFC 1035 §4.1.1), or -1 for fewer octets than a header. */
export function messageId(message: Uint8Array): number {
  return message.length < headerBytes ? -1 : (message[0]! << 8) | message[1]!;
}

/** Writes `id` into the header of `message` (RFC 1035 §4.1.1) and returns it. */
export function writeId(message: Uint8Array, id: number): Uint8Array {
  message[0] = id >> 8;
  message[1] = id & 0xff;
  return message;
}

/** ASCII letters compare case-insensitively in names (RFC 4343 §3); no other octet does. */
function sameNameOctet(a: number, b: number): boolean {
  if (a === b) return true;
  const lower = a | 0x20;
  return lower === (b | 0x20) && lower >= 0x61 && lower <= 0x7a;
}

/**
 * Whether `response` answers `query` (as encodeQuery wrote it): a response (QR) with its ID and
 * OPCODE, and its one question, name compared case-insensitively, type and class alike (RFC 5452
 * §3). Read on the octets, without decoding: every datagram that reaches a socket is checked, and
 * a forged or stray one must cost next to nothing. The question name a server echoes is written
 * without compression (nothing precedes it to point at), so it is the query's octets. Where the
 * channel already pairs the answer with the query (an HTTP exchange), `echoRequired` false also
 * accepts a response that echoes no question.
 */
export function answersQuery(
  query: Uint8Array,
  response: Uint8Array,
  echoRequired = true,
): boolean {
  if (response.length < headerBytes || messageId(response) !== messageId(query)) return false;
  const flags = response[2]!;
  if ((flags & qrBit) === 0 || (flags & opcodeBits) !== (query[2]! & opcodeBits)) return false;
  if (response[4] !== 0) return false;
  if (response[5] === 0) return !echoRequired;
  if (response[5] !== 1) return false;
  // The question: labels (a length octet, then that many octets), the root's 0, TYPE and CLASS.
  let at = headerBytes;
  for (let length = query[at]!; length !== 0; length = query[at]!) {
    if (response[at] !== length || at + length >= response.length) return false;
    for (let octet = at + 1; octet <= at + length; octet++) {
      if (!sameNameOctet(query[octet]!, response[octet]!)) return false;
    }
    at += length + 1;
  }
  if (at + 5 > response.length) return false;
  for (let octet = at; octet < at + 5; octet++) {
    if (query[octet] !== response[octet]) return false;
  }
  return true;
}

/** RFC 1035 §4.2.1: TC, the answer did not fit and was cut; the query goes again over TCP. */
export function isTruncated(response: Uint8Array): boolean {
  return (response[2]! & tcBit) !== 0;
}

/** The RCODE of a response header (RFC 1035 §4.1.1). */
export function rcodeOf(response: Uint8Array): number {
  return response[3]! & rcodeMask;
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
