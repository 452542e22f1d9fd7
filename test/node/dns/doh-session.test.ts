import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createDohTransport,
  type DohTransportOptions,
  type Resolver,
} from '../../../src/dns/index.js';
import { createHttp2Exchanges, type Http2Exchanges } from '../../../src/node/dns/index.js';
import { describeTransportOutcomes, transportWorld } from '../../dns/transport-outcomes.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../../fixtures/dns-server.js';
import {
  badAnswerFaults,
  rfc8484Post,
  type FixtureDohServer,
  startFixtureDohServer,
} from '../../../fixtures/doh-server.js';
import { freePort } from '../../../fixtures/free-port.js';
import { importOf, runChildScript } from '../../support/child-script.js';

/**
 * DNS over HTTPS the way the Node service sends it: one HTTP/2 session per endpoint (h2c with
 * prior knowledge against the fixture endpoint on 127.0.0.1), under the DoH transport's timeouts,
 * retries and failover. What the transport does with any exchange is in
 * test/dns/doh-transport.test.ts; here, what the sessions add on the wire.
 */

let dns: FixtureDnsServer;
let doh: FixtureDohServer;
let backup: FixtureDohServer;
let sessions: Http2Exchanges;
let transport: Resolver;

function overHttp2(options: Partial<DohTransportOptions> = {}): Resolver {
  return createDohTransport({
    endpoints: [doh.url],
    timeoutMs: 1000,
    retries: 0,
    exchange: sessions.exchange,
    ...options,
  });
}

beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones: transportWorld });
  [doh, backup] = await Promise.all([
    startFixtureDohServer({ dns }),
    startFixtureDohServer({ dns }),
  ]);
  sessions = createHttp2Exchanges();
  transport = overHttp2();
});

afterEach(() => {
  for (const endpoint of [doh, backup]) {
    endpoint.setFault(undefined);
    endpoint.setDelay(0);
  }
});

afterAll(async () => {
  sessions.close();
  await Promise.all([doh.close(), backup.close(), dns.close()]);
});

describeTransportOutcomes('DoH over HTTP/2 sessions', () => transport);

describe('DoH over HTTP/2 sessions, on the wire', () => {
  it('POSTs over HTTP/2, application/dns-message both ways, DNS ID 0 (RFC 8484 §4.1)', async () => {
    await transport.query('mail.example.org', 'MX');
    expect(doh.requests.at(-1)).toEqual(rfc8484Post('2.0'));
  });

  it('carries every query on one connection, many at once', async () => {
    await transport.query('mail.example.org', 'A');
    const before = doh.connections;
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => transport.query(`n${i}.example.org`, 'A')),
    );
    expect(outcomes.every((outcome) => outcome.status === 'nxdomain')).toBe(true);
    expect(doh.connections).toBe(before);
  });

  it('opens a new session after the server sends GOAWAY, losing no query', async () => {
    await transport.query('mail.example.org', 'A');
    const before = doh.connections;
    doh.goAway();
    // No retries: a stream the closing session refused is sent again on the new one.
    expect(await transport.query('mail.example.org', 'TXT')).toMatchObject({ status: 'answer' });
    expect(await transport.query('mail.example.org', 'MX')).toMatchObject({ status: 'answer' });
    expect(doh.connections).toBe(before + 1);
  });

  it('opens a new session after the connection is dropped', async () => {
    await transport.query('mail.example.org', 'A');
    const before = doh.connections;
    doh.dropConnections();
    // A query sent before the session learns of it fails once; its retry takes a new session.
    expect(await overHttp2({ retries: 1 }).query('mail.example.org', 'AAAA')).toMatchObject({
      status: 'answer',
    });
    expect(doh.connections).toBe(before + 1);
  });

  it('asks an endpoint that speaks only HTTP/1.1 through fetch, from the first query on', async () => {
    const http1Only = await startFixtureDohServer({ dns, http2: false });
    try {
      const asking = overHttp2({ endpoints: [http1Only.url] });
      expect(await asking.query('mail.example.org', 'A')).toMatchObject({ status: 'answer' });
      expect(await asking.query('mail.example.org', 'MX')).toMatchObject({ status: 'answer' });
      expect(http1Only.requests.map((request) => request.httpVersion)).toEqual(['1.1', '1.1']);
    } finally {
      await http1Only.close();
    }
  });

  it('reports an endpoint where nothing listens as a timeout (no answer)', async () => {
    const dead = overHttp2({ endpoints: [`http://127.0.0.1:${await freePort()}/dns-query`] });
    expect(await dead.query('mail.example.org', 'A')).toEqual({ status: 'timeout' });
  });

  it('never holds the process open: a process that used it exits without closing it', async () => {
    const child = await runChildScript([
      importOf('createDohTransport', '../../../src/dns/index.ts', import.meta.url),
      importOf('createHttp2Exchanges', '../../../src/node/dns/index.ts', import.meta.url),
      `const { exchange } = createHttp2Exchanges();`,
      `const transport = createDohTransport({ endpoints: ['${doh.url}'], timeoutMs: 5000, retries: 0, exchange });`,
      `console.log(JSON.stringify(await transport.query('mail.example.org', 'A')));`,
    ]);
    expect(child).toMatchObject({ code: 0, signal: null });
    expect(JSON.parse(child.output)).toMatchObject({ records: ['192.0.2.10', '192.0.2.11'] });
  });
});

describe('DoH over HTTP/2 sessions, timeouts and failures', () => {
  it('gives a slow answer up at the timeout and takes the retry on the same session', async () => {
    await transport.query('mail.example.org', 'A');
    const before = { connections: doh.connections, requests: doh.requests.length };
    doh.setDelay(400);
    expect(await overHttp2({ timeoutMs: 150, retries: 1 }).query('mail.example.org', 'A')).toEqual({
      status: 'timeout',
    });
    expect(doh.requests.length - before.requests).toBe(2);
    expect(doh.connections).toBe(before.connections);
  });

  it('stops when the caller’s signal aborts', async () => {
    const outcome = overHttp2({ timeoutMs: 10_000 }).query('a.slow.test', 'A', {
      signal: AbortSignal.timeout(100),
    });
    expect(await outcome).toEqual({ status: 'timeout' });
  });

  it.each(badAnswerFaults)('reports %s (%s) as servfail', async (fault) => {
    doh.setFault(fault);
    expect(await transport.query('mail.example.org', 'A')).toEqual({ status: 'servfail' });
  });

  it('fails over to the second endpoint when the first stops answering', async () => {
    const pair = overHttp2({ endpoints: [doh.url, backup.url], timeoutMs: 200, retries: 1 });
    doh.setFault('drop');
    expect(await pair.query('mail.example.org', 'A')).toMatchObject({ status: 'answer' });
    expect(backup.requests.at(-1)).toMatchObject({ httpVersion: '2.0' });
  });

  it('fails every exchange once closed', async () => {
    const closing = createHttp2Exchanges();
    const asking = overHttp2({ exchange: closing.exchange });
    expect(await asking.query('mail.example.org', 'A')).toMatchObject({ status: 'answer' });
    closing.close();
    expect(await asking.query('mail.example.org', 'A')).toEqual({ status: 'timeout' });
  });
});
