import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDohTransport, type DohTransportOptions } from '../../src/dns/doh-transport.js';
import type { Resolver } from '../../src/dns/resolver.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';
import {
  badAnswerFaults,
  rfc8484Post,
  type FixtureDohServer,
  startFixtureDohServer,
} from '../../fixtures/doh-server.js';
import { describeTransportOutcomes, transportWorld } from './transport-outcomes.js';

/**
 * The DoH transport with its default exchange, `fetch` (the Workers' one), over real HTTP on
 * 127.0.0.1 against the fixture DoH endpoint in front of the fixture DNS world: the outcomes
 * every transport shares (transport-outcomes.ts), timeouts, failover, hostile answers. The Node
 * exchange, HTTP/2 sessions: test/node/dns/doh-session.test.ts.
 */

const zones = transportWorld;

let dns: FixtureDnsServer;
let doh: FixtureDohServer;
let backup: FixtureDohServer;
let transport: Resolver;

function dohTransport(options: Partial<DohTransportOptions> = {}): Resolver {
  return createDohTransport({ endpoints: [doh.url], timeoutMs: 1000, retries: 0, ...options });
}

beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones });
  [doh, backup] = await Promise.all([
    startFixtureDohServer({ dns }),
    startFixtureDohServer({ dns }),
  ]);
  transport = dohTransport();
});

afterEach(() => {
  for (const endpoint of [doh, backup]) {
    endpoint.setFault(undefined);
    endpoint.setDelay(0);
  }
});

afterAll(() => Promise.all([doh.close(), backup.close(), dns.close()]));

/** A TCP port nothing listens on: bound once to learn a free one, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeTransportOutcomes('the DoH transport', () => transport);

describe('the DoH transport, beyond the shared outcomes', () => {
  it('answers a name the wire cannot carry as servfail without sending it', async () => {
    const before = doh.requests.length;
    expect(await transport.query(`${'x'.repeat(64)}.example.org`, 'A')).toEqual({
      status: 'servfail',
    });
    expect(doh.requests.length).toBe(before);
  });

  it('refuses a query naming servers of its own: an HTTPS endpoint cannot reach them', async () => {
    const before = doh.requests.length;
    expect(await transport.query('mail.example.org', 'A', { servers: ['192.0.2.53:53'] })).toEqual({
      status: 'refused',
    });
    expect(doh.requests.length).toBe(before);
  });
});

describe('the DoH transport, on the wire', () => {
  it('POSTs application/dns-message, accepts it back, and uses DNS ID 0 (RFC 8484 §4.1)', async () => {
    await transport.query('mail.example.org', 'MX');
    // `fetch` to an http:// URL: HTTP/1.1, on Node as in workerd.
    expect(doh.requests.at(-1)).toEqual(rfc8484Post('1.1'));
  });
});

describe('the DoH transport, timeouts', () => {
  it('gives up on a zone that never answers after the per-query timeout', async () => {
    const impatient = dohTransport({ timeoutMs: 200 });
    const started = performance.now();
    expect(await impatient.query('a.dropped.test', 'A')).toEqual({ status: 'timeout' });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1000);
  });

  it('counts a slow HTTP answer past the timeout as a timeout, and one within it as an answer', async () => {
    doh.setDelay(300);
    expect(await dohTransport({ timeoutMs: 150 }).query('mail.example.org', 'A')).toEqual({
      status: 'timeout',
    });
    expect(await dohTransport({ timeoutMs: 2000 }).query('mail.example.org', 'A')).toMatchObject({
      status: 'answer',
    });
  });

  it('sends the query again after a timeout, DNS_RETRIES times', async () => {
    const before = doh.requests.length;
    expect(await dohTransport({ timeoutMs: 100, retries: 2 }).query('b.dropped.test', 'A')).toEqual(
      { status: 'timeout' },
    );
    expect(doh.requests.length - before).toBe(3);
  });

  it("waits by a query's own timeoutMs instead of the transport's, on every attempt", async () => {
    const before = doh.requests.length;
    // The transport alone would wait 20 s here: the test's own time-out fails it then.
    const patient = dohTransport({ timeoutMs: 10_000, retries: 1 });
    expect(await patient.query('b.dropped.test', 'A', { timeoutMs: 100 })).toEqual({
      status: 'timeout',
    });
    expect(doh.requests.length - before).toBe(2);
  });

  it('stops when the caller’s signal aborts, before its own timeout', async () => {
    const started = performance.now();
    const outcome = await dohTransport({ timeoutMs: 5000 }).query('a.slow.test', 'A', {
      signal: AbortSignal.timeout(100),
    });
    expect(outcome).toEqual({ status: 'timeout' });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('sends nothing when the caller’s signal has already aborted', async () => {
    const before = doh.requests.length;
    expect(
      await dohTransport({ retries: 3 }).query('mail.example.org', 'A', {
        signal: AbortSignal.abort(),
      }),
    ).toEqual({ status: 'timeout' });
    expect(doh.requests.length).toBe(before);
  });

  it('reports an endpoint where nothing listens as a timeout (no answer), not as an error', async () => {
    const dead = createDohTransport({
      endpoints: [`http://127.0.0.1:${await closedPort()}/dns-query`],
      timeoutMs: 500,
      retries: 1,
    });
    expect(await dead.query('mail.example.org', 'A')).toEqual({ status: 'timeout' });
  });
});

describe('the DoH transport, hostile or broken endpoints', () => {
  it.each(badAnswerFaults)('reports %s (%s) as servfail, not a crash', async (fault) => {
    doh.setFault(fault);
    expect(await transport.query('mail.example.org', 'A')).toEqual({ status: 'servfail' });
  });

  it('answers properly again once the endpoint does', async () => {
    doh.setFault('garbage');
    expect(await transport.query('mail.example.org', 'TXT')).toEqual({ status: 'servfail' });
    doh.setFault(undefined);
    expect(await transport.query('mail.example.org', 'TXT')).toMatchObject({ status: 'answer' });
  });
});

describe('the DoH transport, several endpoints', () => {
  it('asks the first endpoint while it answers, and never the second', async () => {
    const pair = dohTransport({ endpoints: [doh.url, backup.url], retries: 1 });
    const before = { doh: doh.requests.length, backup: backup.requests.length };
    for (const name of ['mail.example.org', 'www.example.org', 'example.org']) {
      expect(await pair.query(name, 'A')).not.toEqual({ status: 'timeout' });
    }
    expect(doh.requests.length - before.doh).toBe(3);
    expect(backup.requests.length - before.backup).toBe(0);
  });

  it('fails over to the second when the first stops answering, and stays there', async () => {
    const pair = dohTransport({ endpoints: [doh.url, backup.url], timeoutMs: 200, retries: 1 });
    doh.setFault('drop');
    const before = { doh: doh.requests.length, backup: backup.requests.length };
    expect(await pair.query('mail.example.org', 'A')).toMatchObject({ status: 'answer' });
    // One timed-out attempt at the first, the retry at the second.
    expect(doh.requests.length - before.doh).toBe(1);
    expect(backup.requests.length - before.backup).toBe(1);
    // Later queries start at the endpoint that answered: the dead one costs no more timeouts.
    expect(await pair.query('mail.example.org', 'AAAA')).toMatchObject({ status: 'answer' });
    expect(doh.requests.length - before.doh).toBe(1);
    expect(backup.requests.length - before.backup).toBe(2);
  });

  it('fails over on an HTTP error too, and moves on only once for queries failing together', async () => {
    const pair = dohTransport({ endpoints: [doh.url, backup.url], retries: 1 });
    doh.setFault('http-error');
    const outcomes = await Promise.all(
      ['mail.example.org', 'www.example.org', 'example.org'].map((name) => pair.query(name, 'NS')),
    );
    // Each failed at the first and was answered by the second: none skipped back to the first.
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['nodata', 'nodata', 'answer']);
  });

  it('reports servfail when every endpoint answered with something that is not DNS', async () => {
    const pair = dohTransport({ endpoints: [doh.url, backup.url], retries: 1 });
    doh.setFault('garbage');
    backup.setFault('http-error');
    expect(await pair.query('mail.example.org', 'A')).toEqual({ status: 'servfail' });
  });

  it('takes a DNS answer with an RCODE as final, asking no other endpoint', async () => {
    const pair = dohTransport({ endpoints: [doh.url, backup.url], retries: 1 });
    const before = { doh: doh.requests.length, backup: backup.requests.length };
    expect(await pair.query('a.servfail.test', 'A')).toEqual({ status: 'servfail' });
    expect(doh.requests.length - before.doh).toBe(1);
    expect(backup.requests.length - before.backup).toBe(0);
  });
});
