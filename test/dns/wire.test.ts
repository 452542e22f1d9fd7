import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { decodeResponse, encodeQuery, MalformedMessageError } from '../../src/dns/wire.js';

/** The codec at its boundary: the bytes of a query, and what decoding a response keeps. */

type Answer = dnsPacket.Answer;

function response(answers: Answer[], flags = 0, id = 0): Uint8Array {
  return dnsPacket.encode({
    type: 'response',
    id,
    flags,
    questions: [{ name: 'example.org', type: 'TXT', class: 'IN' }],
    answers,
  });
}

describe('encodeQuery', () => {
  it('writes one recursive IN question with ID 0 (RFC 8484 §4.1)', () => {
    const query = dnsPacket.decode(Buffer.from(encodeQuery('mail.example.org', 'MX')));
    expect(query).toMatchObject({
      id: 0,
      type: 'query',
      flag_rd: true,
      questions: [{ name: 'mail.example.org', type: 'MX', class: 'IN' }],
      answers: [],
      additionals: [],
    });
  });

  it.each([
    ['mail.example.org', 'MX', 0],
    ['4.3.2.1.zen.spamhaus.org', 'A', 0xbeef],
    ['e.0.0.2.0.0.0.0.0.0.0.0.0.0.0.0.b.0.8.0.1.0.0.4.0.5.4.1.0.0.a.2.ip6.arpa', 'PTR', 1],
    ['_dmarc.Example.ORG', 'TXT', 65535],
    ['xn--e1afmkfd.xn--p1ai', 'AAAA', 7],
    ['пример.рф', 'NS', 7],
    ['example.org', 'CNAME', 42],
  ] as const)('writes the bytes dns-packet writes for %s %s', (name, type, id) => {
    const expected = (additionals: dnsPacket.Answer[]) =>
      new Uint8Array(
        dnsPacket.encode({
          type: 'query',
          id,
          flags: dnsPacket.RECURSION_DESIRED,
          questions: [{ name, type, class: 'IN' }],
          additionals,
        }),
      );
    expect(encodeQuery(name, type, id)).toEqual(expected([]));
    const opt: dnsPacket.Answer = {
      type: 'OPT',
      name: '.',
      udpPayloadSize: 1232,
      extendedRcode: 0,
      ednsVersion: 0,
      flags: 0,
      flag_do: false,
      options: [],
    };
    expect(encodeQuery(name, type, id, 1232)).toEqual(expected([opt]));
  });

  it('writes the same bytes with or without the root dot', () => {
    expect(encodeQuery('example.org.', 'A')).toEqual(encodeQuery('example.org', 'A'));
  });

  it.each([
    ['a label over 63 octets', `${'x'.repeat(64)}.example.org`],
    ['an empty label', 'mail..example.org'],
    ['a name over 255 octets', Array.from({ length: 5 }, () => 'x'.repeat(60)).join('.')],
  ])('refuses %s instead of writing a corrupt message', (_, name) => {
    expect(() => encodeQuery(name, 'A')).toThrow(MalformedMessageError);
  });
});

describe('decodeResponse', () => {
  it('reads the RCODE, the question and the answers, names in lower case without the root dot', () => {
    const decoded = decodeResponse(
      response(
        [{ name: 'Example.ORG.', type: 'A', ttl: 60, class: 'IN', data: '192.0.2.1' }],
        3, // NXDOMAIN
        0,
      ),
    );
    expect(decoded).toEqual({
      id: 0,
      rcode: 3,
      truncated: false,
      questions: [{ name: 'example.org', type: 'TXT' }],
      answers: [{ name: 'example.org', type: 'A', ttl: 60, data: '192.0.2.1' }],
    });
  });

  it('joins TXT character-strings as bytes, so a character split between two stays whole', () => {
    const text = Buffer.from('reason: ы listed');
    const split = [text.subarray(0, 9), text.subarray(9)]; // 'ы' is two octets: 8 and 9
    const decoded = decodeResponse(
      response([{ name: 'example.org', type: 'TXT', ttl: 60, class: 'IN', data: split }]),
    );
    expect(decoded.answers[0]?.data).toBe('reason: ы listed');
  });

  it('reads MX preference as priority', () => {
    const decoded = decodeResponse(
      response([
        {
          name: 'example.org',
          type: 'MX',
          ttl: 60,
          class: 'IN',
          data: { preference: 10, exchange: 'MX1.example.org' },
        },
      ]),
    );
    expect(decoded.answers[0]?.data).toEqual({ exchange: 'mx1.example.org', priority: 10 });
  });

  it('treats a TTL with the top bit set as 0 (RFC 2181 §8)', () => {
    const decoded = decodeResponse(
      response([
        { name: 'example.org', type: 'A', ttl: 0x80000000, class: 'IN', data: '192.0.2.1' },
      ]),
    );
    expect(decoded.answers[0]?.ttl).toBe(0);
  });

  it('reads the TC bit', () => {
    expect(decodeResponse(response([], dnsPacket.TRUNCATED_RESPONSE)).truncated).toBe(true);
  });

  it('keeps records of other types as "other" without reading them', () => {
    const soa: Answer = {
      name: 'example.org',
      type: 'SOA',
      ttl: 60,
      class: 'IN',
      data: {
        mname: 'ns.example.org',
        rname: 'hostmaster.example.org',
        serial: 1,
        refresh: 1,
        retry: 1,
        expire: 1,
        minimum: 1,
      },
    };
    expect(decodeResponse(response([soa])).answers).toEqual([
      { name: 'example.org', type: 'other', ttl: 60, data: undefined },
    ]);
  });

  it.each([
    ['nothing', new Uint8Array(0)],
    ['a header cut short', new Uint8Array([0, 0, 0x81])],
    ['a query', encodeQuery('example.org', 'A')],
    ['an answer count past the end', response([]).map((byte, index) => (index === 7 ? 5 : byte))],
    ['bytes past its end', new Uint8Array([...response([]), 0, 0])],
    [
      'a compression pointer forwards',
      // Header, then a question whose name is a pointer to octet 12, itself.
      new Uint8Array([0, 0, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 0x0c, 0, 1, 0, 1]),
    ],
  ])('throws MalformedMessageError for %s', (_, bytes) => {
    expect(() => decodeResponse(bytes)).toThrow(MalformedMessageError);
  });
});
