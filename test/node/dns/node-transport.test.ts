import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport } from '../../../src/node/dns/node-transport.js';
import type { Resolver } from '../../../src/dns/resolver.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';
import { describeTransportOutcomes, transportWorld } from '../../dns/transport-outcomes.js';

const zones = transportWorld;

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

describeTransportOutcomes('the c-ares transport', () => transport);

describe('the c-ares transport, beyond the shared outcomes', () => {
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
