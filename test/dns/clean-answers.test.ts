import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanDnsText, cleanShownText, type Resolver } from '../../src/dns/index.js';
import { createResolver } from '../../src/node/dns/index.js';
import type { FixtureDnsServer } from '../../fixtures/dns-server.js';
import { type FixtureDohServer, startFixtureDohServer } from '../../fixtures/doh-server.js';
import {
  type ScriptedDnsServer,
  responseTo,
  startScriptedDnsServer,
} from '../../fixtures/scripted-dns-server.js';

/**
 * Hostile bytes from a DNS server, over the wire of each transport (UDP on node:dgram, DoH): a PTR
 * name holding U+202E, NUL, a newline and DEL, a TXT reason in valid UTF-8 (Cyrillic) with the
 * same characters and two octets that are not UTF-8. Every transport's names pass the stack's one
 * rule (controls and bidi overrides replaced by U+FFFD); TXT text arrives decoded once and as
 * sent, for the record grammars that read tabs and line breaks, and is cleaned where a result
 * leaves its check (`cleanShownText`).
 */

const reverse = '7.113.0.203.in-addr.arpa';
const hostilePtr = 'evil\u202eexample\u0000\n\u007f.test';
const hostileTxt = Buffer.concat([
  Buffer.from('Спам \u202eмоc.knab\u0000\n\u007f end '),
  Buffer.from([0xff, 0xfe]),
]);

function answerOf(packet: dnsPacket.DecodedPacket): Buffer {
  const question = packet.questions?.[0];
  const answers: dnsPacket.Answer[] =
    question?.type === 'PTR'
      ? [{ type: 'PTR', name: reverse, ttl: 60, data: hostilePtr }]
      : [{ type: 'TXT', name: question?.name ?? reverse, ttl: 60, data: [hostileTxt] }];
  return responseTo(packet, answers);
}

let udp: ScriptedDnsServer;
let doh: FixtureDohServer;
beforeAll(async () => {
  udp = await startScriptedDnsServer({ onQuery: (query) => query.reply(answerOf(query.packet)) });
  // The DoH fixture answers through a server's `respond`: here the same hostile answers.
  const hostile = {
    respond: async (message: Uint8Array) =>
      answerOf(dnsPacket.decode(Buffer.from(message))) as Uint8Array,
  } as unknown as FixtureDnsServer;
  doh = await startFixtureDohServer({ dns: hostile });
});
afterAll(() => Promise.all([udp.close(), doh.close()]));

// eslint-disable-next-line no-control-regex -- the control characters are what is looked for
const unsafe = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe.each([
  ['UDP', (): Resolver => createResolver({ servers: [udp.address], timeoutMs: 1000, retries: 0 })],
  [
    'DoH',
    (): Resolver =>
      createResolver({
        transport: 'doh',
        servers: [],
        dohUrls: [doh.url],
        timeoutMs: 2000,
        retries: 0,
      }),
  ],
])('answers over %s', (_name, resolverOf) => {
  it('carry no control or bidi character in a PTR name', async () => {
    const outcome = await resolverOf().query(reverse, 'PTR');
    expect(outcome.status).toBe('answer');
    const [name] = outcome.status === 'answer' ? outcome.records : [];
    expect(name).toBe('evil\ufffdexample\ufffd\ufffd\ufffd.test');
    expect(name).not.toMatch(unsafe);
  });

  it('decode a UTF-8 TXT string once and keep its characters for the parsers, bytes that are not UTF-8 replaced', async () => {
    const outcome = await resolverOf().query('7.113.0.203.reasons.test', 'TXT');
    const [reason] = outcome.status === 'answer' ? outcome.records : [];
    expect(reason).toBe('Спам \u202eмоc.knab\u0000\n\u007f end \ufffd\ufffd');
    expect(cleanShownText({ reason })).toEqual({
      reason: 'Спам \ufffdмоc.knab\ufffd\ufffd\ufffd end \ufffd\ufffd',
    });
  });
});

describe('cleanShownText', () => {
  it('cleans every string of a result, in objects and arrays, and keeps numbers, booleans and nulls', () => {
    const result = {
      record: 'v=DMARC1;\tp=reject',
      rua: [{ uri: 'mailto:d@example.com\u202e', authorized: null }],
      pct: 100,
      present: true,
    };
    expect(cleanShownText(result)).toEqual({
      record: 'v=DMARC1;\ufffdp=reject',
      rua: [{ uri: 'mailto:d@example.com\ufffd', authorized: null }],
      pct: 100,
      present: true,
    });
  });

  it('returns the same object when nothing needs cleaning', () => {
    const result = { record: 'v=spf1 -all', list: ['a', 'b'] };
    expect(cleanShownText(result)).toBe(result);
  });
  it('copies an object from its first value to clean, keeping its keys in order, a __proto__ key as data', () => {
    const kept = { text: 'clean' };
    const result = JSON.parse(
      '{"a":"ok","b":{"text":"clean"},"__proto__":"x\\u202e","c":"y\\u0000"}',
    ) as Record<string, unknown>;
    result.b = kept;
    const cleaned = cleanShownText(result);
    expect(cleaned).not.toBe(result);
    expect(Object.keys(cleaned)).toEqual(['a', 'b', '__proto__', 'c']);
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(cleaned, '__proto__')?.value).toBe('x\ufffd');
    expect(cleaned.a).toBe('ok');
    expect(cleaned.b).toBe(kept);
    expect(cleaned.c).toBe('y\ufffd');
  });

  it('cleans each value once, however deep the text that needs it lies', () => {
    // 40 levels: cleaning the value that needs it twice at each level would be 2^40 cleanings.
    let nested: unknown = 'deep \u202e text';
    for (let level = 0; level < 40; level++) nested = { text: nested, more: ['clean', level] };
    let cleaned = cleanShownText(nested) as { text: unknown };
    for (let level = 0; level < 40; level++) cleaned = cleaned.text as { text: unknown };
    expect(cleaned).toBe('deep \ufffd text');
  });
});

describe('cleanDnsText', () => {
  it.each([
    ['mail.example.net', 'mail.example.net'],
    ['Пример причины', 'Пример причины'],
    ['a\u2066b\u2069c\u200fd\u061ce\ufeff', 'a\ufffdb\ufffdc\ufffdd\ufffde\ufffd'],
    ['line\u2028break\u0085', 'line\ufffdbreak\ufffd'],
  ])('turns %j into %j', (text, cleaned) => {
    expect(cleanDnsText(text)).toBe(cleaned);
  });
});
