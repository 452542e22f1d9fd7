import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport } from '../../src/dns/node-transport.js';
import type { Resolver } from '../../src/dns/resolver.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../fixtures/dns-server.js';

const longText = `v=spf1 ${Array.from({ length: 30 }, (_, i) => `ip4:198.51.100.${i}`).join(' ')} -all`;

const zones: FixtureZone[] = [
  {
    origin: 'example.org',
    ttl: 120,
    records: {
      'mail.example.org': {
        A: ['192.0.2.10', '192.0.2.11'],
        AAAA: ['2001:db8::10'],
        TXT: ['v=spf1 -all', longText],
        MX: [
          { exchange: 'mx1.example.org', priority: 10 },
          { exchange: 'mx2.example.org', priority: 20 },
        ],
      },
      'example.org': { NS: ['ns1.example.org', 'ns2.example.org'] },
      'www.example.org': { CNAME: 'mail.example.org' },
    },
  },
  {
    origin: '2.0.192.in-addr.arpa',
    records: { '10.2.0.192.in-addr.arpa': { PTR: ['mail.example.org'] } },
  },
  { origin: 'servfail.test', behaviour: 'servfail' },
  { origin: 'refused.test', behaviour: 'refused' },
  { origin: 'dropped.test', behaviour: 'drop' },
];

let server: FixtureDnsServer;
let other: FixtureDnsServer;
let transport: Resolver;

beforeAll(async () => {
  [server, other] = await Promise.all([
    startFixtureDnsServer({ zones }),
    startFixtureDnsServer({
      zones: [{ origin: 'example.org', records: { 'mail.example.org': { A: ['192.0.2.99'] } } }],
    }),
  ]);
  transport = createNodeTransport({ servers: [server.address], timeoutMs: 1000, retries: 0 });
});

afterAll(() => Promise.all([server.close(), other.close()]));

/** A port nothing listens on: bound once to learn a free one, then closed. */
async function closedPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

describe('the c-ares transport', () => {
  it('reports an A answer with its records and TTL', async () => {
    const outcome = await transport.query('mail.example.org', 'A');
    expect(outcome).toEqual({ status: 'answer', records: ['192.0.2.10', '192.0.2.11'], ttl: 120 });
  });

  it('reports an AAAA answer with its TTL', async () => {
    expect(await transport.query('mail.example.org', 'AAAA')).toEqual({
      status: 'answer',
      records: ['2001:db8::10'],
      ttl: 120,
    });
  });

  it('reports a name that does not exist as nxdomain', async () => {
    expect(await transport.query('nowhere.example.org', 'A')).toEqual({ status: 'nxdomain' });
  });

  it('reports a name without records of the type as nodata', async () => {
    expect(await transport.query('example.org', 'A')).toEqual({ status: 'nodata' });
    expect(await transport.query('mail.example.org', 'PTR')).toEqual({ status: 'nodata' });
  });

  it('reports SERVFAIL as servfail', async () => {
    expect(await transport.query('a.servfail.test', 'A')).toEqual({ status: 'servfail' });
  });

  it('reports REFUSED as refused', async () => {
    expect(await transport.query('a.refused.test', 'TXT')).toEqual({ status: 'refused' });
  });

  it('reports a zone that never answers as a timeout', async () => {
    // A fresh transport: c-ares adapts its timeout to the answers it has seen.
    const impatient = createNodeTransport({
      servers: [server.address],
      timeoutMs: 200,
      retries: 0,
    });
    const start = performance.now();
    expect(await impatient.query('a.dropped.test', 'A')).toEqual({ status: 'timeout' });
    expect(performance.now() - start).toBeLessThan(1000);
  });

  it('reports a server on a closed port as a timeout (no answer), not as an error', async () => {
    const dead = createNodeTransport({
      servers: [`127.0.0.1:${await closedPort()}`],
      timeoutMs: 200,
      retries: 0,
    });
    expect(await dead.query('mail.example.org', 'A')).toEqual({ status: 'timeout' });
  });

  it('joins the character-strings of each TXT record (RFC 7208 §3.3)', async () => {
    const outcome = await transport.query('mail.example.org', 'TXT');
    expect(outcome.status).toBe('answer');
    expect(outcome.status === 'answer' && outcome.records).toEqual(['v=spf1 -all', longText]);
    expect(longText.length).toBeGreaterThan(255);
  });

  it('decodes MX, NS, PTR and CNAME records', async () => {
    expect(await transport.query('mail.example.org', 'MX')).toMatchObject({
      status: 'answer',
      records: [
        { exchange: 'mx1.example.org', priority: 10 },
        { exchange: 'mx2.example.org', priority: 20 },
      ],
    });
    expect(await transport.query('example.org', 'NS')).toMatchObject({
      status: 'answer',
      records: ['ns1.example.org', 'ns2.example.org'],
    });
    expect(await transport.query('10.2.0.192.in-addr.arpa', 'PTR')).toMatchObject({
      status: 'answer',
      records: ['mail.example.org'],
    });
    expect(await transport.query('www.example.org', 'CNAME')).toMatchObject({
      status: 'answer',
      records: ['mail.example.org'],
    });
  });

  it('follows a CNAME to the addresses of its target', async () => {
    expect(await transport.query('www.example.org', 'A')).toMatchObject({
      status: 'answer',
      records: ['192.0.2.10', '192.0.2.11'],
    });
  });

  it('asks another server when a query names its servers', async () => {
    const before = { server: server.queries.length, other: other.queries.length };
    expect(
      await transport.query('mail.example.org', 'A', { servers: [other.address] }),
    ).toMatchObject({ status: 'answer', records: ['192.0.2.99'] });
    expect(other.queries.length - before.other).toBe(1);
    expect(server.queries.length - before.server).toBe(0);
    // The configured server is still the one asked without the option.
    expect(await transport.query('mail.example.org', 'A')).toMatchObject({
      records: ['192.0.2.10', '192.0.2.11'],
    });
  });
});
