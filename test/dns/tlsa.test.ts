import dnsPacket from 'dns-packet';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DohExchange, fetchExchange } from '../../src/dns/doh-exchange.js';
import { createDohTlsaLookup, encodeTlsaQuery } from '../../src/dns/tlsa.js';
import { createHttp2Exchanges } from '../../src/node/dns/index.js';
import { createTlsaLookup } from '../../src/node/probes/index.js';
import { freePort } from '../../fixtures/free-port.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../../fixtures/dns-server.js';
import { type FixtureDohServer, startFixtureDohServer } from '../../fixtures/doh-server.js';

/**
 * TLSA with the AD bit over DNS over HTTPS (src/dns/tlsa.ts, docs/mail.md "DANE"): real HTTP on
 * 127.0.0.1 to the fixture DoH endpoint in front of the fixture DNS world, one zone of it signed
 * and validated (the fixture's `validated`: AD on answers to queries that ask for it), one not;
 * with `fetch` (the Workers' exchange) and with Node's HTTP/2 sessions; and the UDP lookup of
 * Node against the same world.
 */

const association = '8cb0fc6c527506a053f4f14c8464bebbd6dede2738d11468dd953d7d6a3021f1';
const tlsa = [{ usage: 3, selector: 1, matchingType: 1, data: association }];
const record = { usage: 3, selector: 1, matching_type: 1, data: association };
const zones: FixtureZone[] = [
  {
    origin: 'signed.example',
    validated: true,
    records: {
      '_25._tcp.mx.signed.example': { TLSA: tlsa },
      'mx.signed.example': { A: ['192.0.2.25'] },
    },
  },
  { origin: 'plain.example', records: { '_25._tcp.mx.plain.example': { TLSA: tlsa } } },
  { origin: 'broken.example', behaviour: 'servfail' },
];

let dns: FixtureDnsServer;
let doh: FixtureDohServer;
beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones });
  doh = await startFixtureDohServer({ dns });
});
afterEach(() => doh.setFault(undefined));
afterAll(() => Promise.all([doh.close(), dns.close()]));

const live = () => new AbortController().signal;

describe('the TLSA query', () => {
  it('asks with ID 0 (RFC 8484 §4.1), RD and AD set, and DO in EDNS0', () => {
    const packet = dnsPacket.decode(Buffer.from(encodeTlsaQuery('_25._tcp.mx.signed.example')));
    expect(packet.id).toBe(0);
    expect(packet.flags! & dnsPacket.AUTHENTIC_DATA).not.toBe(0);
    expect(packet.flags! & dnsPacket.RECURSION_DESIRED).not.toBe(0);
    expect(packet.questions).toEqual([
      { name: '_25._tcp.mx.signed.example', type: 'TLSA', class: 'IN' },
    ]);
    const [opt] = packet.additionals as dnsPacket.OptAnswer[];
    expect(opt?.type).toBe('OPT');
    expect(opt!.flags! & dnsPacket.DNSSEC_OK).not.toBe(0);
  });
});

describe.each([
  ['fetch', () => undefined],
  ['Node’s HTTP/2 sessions', () => createHttp2Exchanges().exchange],
])('the DoH TLSA lookup over %s', (_name, exchangeOf) => {
  const exchange = exchangeOf();
  const lookup = () =>
    createDohTlsaLookup({
      endpoints: [doh.url],
      timeoutMs: 1000,
      ...(exchange ? { exchange } : {}),
    });

  it('reports the records of a validated zone with authenticated true', async () => {
    const before = doh.requests.length;
    expect(await lookup()('_25._tcp.mx.signed.example', live())).toEqual({
      status: 'answer',
      records: [record],
      authenticated: true,
    });
    expect(doh.requests.slice(before)).toMatchObject([{ method: 'POST', dnsId: 0 }]);
  });

  it('reports the same records of a zone that does not validate with authenticated false', async () => {
    expect(await lookup()('_25._tcp.mx.plain.example', live())).toEqual({
      status: 'answer',
      records: [record],
      authenticated: false,
    });
  });

  it('tells NXDOMAIN and NODATA apart, each with the AD bit', async () => {
    expect(await lookup()('_25._tcp.nowhere.signed.example', live())).toEqual({
      status: 'nxdomain',
      authenticated: true,
    });
    expect(await lookup()('mx.signed.example', live())).toEqual({
      status: 'nodata',
      authenticated: true,
    });
    expect(await lookup()('_25._tcp.mx.broken.example', live())).toEqual({ status: 'servfail' });
  });
});

describe('the DoH TLSA lookup over Node’s HTTP/2 sessions', () => {
  it('asks every name on one connection, as the DNS transport’s queries go', async () => {
    const sessions = createHttp2Exchanges();
    const lookup = createDohTlsaLookup({
      endpoints: [doh.url],
      timeoutMs: 1000,
      exchange: sessions.exchange,
    });
    const before = doh.connections;
    const names = ['mx.signed', 'nowhere.signed', 'mx.plain'].map(
      (host) => `_25._tcp.${host}.example`,
    );
    const outcomes = await Promise.all(names.map((name) => lookup(name, live())));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['answer', 'nxdomain', 'answer']);
    expect(doh.connections - before).toBe(1);
    sessions.close();
  });
});

describe('the DoH TLSA lookup’s endpoints', () => {
  it('passes over an endpoint that does not answer to the next one', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/dns-query`;
    const lookup = createDohTlsaLookup({ endpoints: [dead, doh.url], timeoutMs: 1000 });
    expect(await lookup('_25._tcp.mx.signed.example', live())).toMatchObject({
      status: 'answer',
      authenticated: true,
    });
  });

  it('reports servfail when the endpoint answers with no DNS message, timeout when it is silent', async () => {
    const lookup = createDohTlsaLookup({ endpoints: [doh.url], timeoutMs: 300 });
    doh.setFault('garbage');
    expect(await lookup('_25._tcp.mx.signed.example', live())).toEqual({ status: 'servfail' });
    doh.setFault('wrong-question');
    expect(await lookup('_25._tcp.mx.signed.example', live())).toEqual({ status: 'servfail' });
    doh.setFault('drop');
    const started = Date.now();
    expect(await lookup('_25._tcp.mx.signed.example', live())).toEqual({ status: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('ends when the check’s signal aborts', async () => {
    doh.setFault('drop');
    const lookup = createDohTlsaLookup({ endpoints: [doh.url], timeoutMs: 10_000 });
    const started = Date.now();
    expect(await lookup('_25._tcp.mx.signed.example', AbortSignal.timeout(200))).toEqual({
      status: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('the DoH TLSA lookup’s bound per check', () => {
  /** `fetch` exchanges that count how many are on the wire at once, each held 50 ms. */
  function countingExchange() {
    const counts = { now: 0, most: 0 };
    const inner = fetchExchange();
    const exchange: DohExchange = (endpoint, query, receiver) => {
      counts.now++;
      counts.most = Math.max(counts.most, counts.now);
      return inner(endpoint, query, {
        exchanged: (result) =>
          setTimeout(() => {
            counts.now--;
            receiver.exchanged(result);
          }, 50),
      });
    };
    return { exchange, counts };
  }
  const names = ['mx', 'nowhere', 'other'].map((host) => `_25._tcp.${host}.signed.example`);

  it('asks one check’s names one at a time with maxPerCheck 1, and every answer comes', async () => {
    const { exchange, counts } = countingExchange();
    const lookup = createDohTlsaLookup({
      endpoints: [doh.url],
      timeoutMs: 2000,
      exchange,
      maxPerCheck: 1,
    });
    const signal = live();
    const outcomes = await Promise.all(names.map((name) => lookup(name, signal)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['answer', 'nxdomain', 'nxdomain']);
    expect(counts.most).toBe(1);
  });

  it('lets two checks (two signals) go side by side, and leaves a lookup without the bound unbounded', async () => {
    const bounded = countingExchange();
    const lookup = createDohTlsaLookup({
      endpoints: [doh.url],
      timeoutMs: 2000,
      exchange: bounded.exchange,
      maxPerCheck: 1,
    });
    await Promise.all(names.map((name) => lookup(name, live())));
    expect(bounded.counts.most).toBe(3);
    const free = countingExchange();
    const unbounded = createDohTlsaLookup({
      endpoints: [doh.url],
      timeoutMs: 2000,
      exchange: free.exchange,
    });
    const signal = live();
    await Promise.all(names.map((name) => unbounded(name, signal)));
    expect(free.counts.most).toBe(3);
  });
});

describe('the fixture’s validated zones over UDP', () => {
  it('answer Node’s UDP TLSA lookup with AD from a validated zone only', async () => {
    const lookup = createTlsaLookup({
      servers: [{ host: '127.0.0.1', port: dns.port, family: 4 }],
      timeoutMs: 1000,
    });
    expect(await lookup('_25._tcp.mx.signed.example', live())).toMatchObject({
      status: 'answer',
      authenticated: true,
    });
    expect(await lookup('_25._tcp.mx.plain.example', live())).toMatchObject({
      status: 'answer',
      authenticated: false,
    });
  });

  it('set AD only for a query that asked with AD or DO (RFC 6840 §5.8)', async () => {
    const ask = async (flags: number) => {
      const query = dnsPacket.encode({
        type: 'query',
        id: 0,
        flags,
        questions: [{ type: 'A', name: 'mx.signed.example' }],
      });
      const response = await fetch(doh.url, {
        method: 'POST',
        headers: { 'content-type': 'application/dns-message' },
        body: query,
      });
      const packet = dnsPacket.decode(Buffer.from(await response.arrayBuffer()));
      expect(packet.answers).toMatchObject([{ type: 'A', data: '192.0.2.25' }]);
      return (packet.flags! & dnsPacket.AUTHENTIC_DATA) !== 0;
    };
    expect(await ask(dnsPacket.RECURSION_DESIRED)).toBe(false);
    expect(await ask(dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA)).toBe(true);
  });
});
