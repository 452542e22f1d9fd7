import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../src/http/index.js';
import { createLogger } from '../../src/lib/index.js';
import { uncappedPeers } from '../../src/node/client-connections.js';
import { type ConnectionRefusal, limitConnections } from '../../src/node/connections.js';

/**
 * limitConnections on a real node:http server over real TCP, in this process: each client is an
 * address of 127/8 (all loopback on Linux), bound with `localAddress`.
 */

interface Connection {
  socket: Socket;
  received(): string;
  isClosed(): boolean;
}

const sockets: Socket[] = [];
let server: Server | undefined;
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function limitedServer(trustProxy: string, max: number, maxPerClient: number) {
  const refusals: ConnectionRefusal[] = [];
  const logged: Record<string, unknown>[] = [];
  server = createServer((_request, response) => response.end('ok'));
  limitConnections(
    server,
    { max, maxPerClient, uncapped: uncappedPeers(parseTrustProxy(trustProxy)) },
    createLogger('info', (line) => logged.push(JSON.parse(line) as Record<string, unknown>)),
    () => ({}),
    (refusal) => refusals.push(refusal),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, refusals, logged };
}

async function open(port: number, localAddress: string): Promise<Connection> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  sockets.push(socket);
  socket.on('error', () => {});
  let text = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.on('close', () => (closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, received: () => text, isClosed: () => closed };
}

async function openMany(port: number, localAddress: string, count: number) {
  return Promise.all(Array.from({ length: count }, () => open(port, localAddress)));
}

const request = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';

/** A request on a new connection: the answer's first bytes, or '' when it is closed unanswered. */
async function firstAnswer(port: number, localAddress: string): Promise<string> {
  const connection = await open(port, localAddress);
  connection.socket.write(request);
  return new Promise((resolve) => {
    connection.socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    connection.socket.once('close', () => resolve(connection.received()));
  });
}

describe('limitConnections per client', () => {
  it('closes a client’s connection past its share at once, without an answer, and counts it per_client', async () => {
    const { port, refusals, logged } = await limitedServer('none', 10, 2);
    const held = await openMany(port, '127.0.0.1', 2);
    const past = await open(port, '127.0.0.1');
    await expect.poll(() => past.isClosed()).toBe(true);
    expect(past.received()).toBe('');
    expect(refusals).toEqual(['per_client']);
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'connections refused', perClient: 1, maxPerClient: 2 }),
    );
    for (const connection of held) connection.socket.write(request);
    await expect
      .poll(() => held.map((c) => c.received().slice(0, 15)))
      .toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
  });

  it('admits the client again once one of its connections closes', async () => {
    const { port } = await limitedServer('none', 10, 1);
    const [first] = await openMany(port, '127.0.0.1', 1);
    first!.socket.destroy();
    // The server counts the close when it sees it: until then a new connection is still refused.
    await expect.poll(() => firstAnswer(port, '127.0.0.1')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses a client past its share before MAX_CONNECTIONS, so it never takes the others’ slots', async () => {
    // One client alone could fill MAX_CONNECTIONS (4) without the share (2).
    const { port, refusals } = await limitedServer('none', 4, 2);
    const hog = await openMany(port, '127.0.0.1', 6);
    await expect.poll(() => hog.filter((c) => c.isClosed()).length).toBe(4);
    const others = [...(await openMany(port, '127.0.0.2', 2)), await open(port, '127.0.0.3')];
    for (const connection of others) connection.socket.write(request);
    await expect
      .poll(() => others.map((c) => c.received().slice(0, 12)))
      .toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 503']);
    expect(refusals).toEqual(['per_client', 'per_client', 'per_client', 'per_client', 'busy']);
  });

  it('does not cap a proxy TRUST_PROXY names, and caps every other peer', async () => {
    const { port, refusals } = await limitedServer('127.0.0.2', 10, 2);
    const proxied = await openMany(port, '127.0.0.2', 5);
    for (const connection of proxied) connection.socket.write(request);
    await expect
      .poll(() => proxied.map((c) => c.received().slice(0, 12)))
      .toEqual(Array(5).fill('HTTP/1.1 200'));
    const direct = await openMany(port, '127.0.0.1', 3);
    await expect.poll(() => direct.filter((c) => c.isClosed()).length).toBe(1);
    expect(refusals).toEqual(['per_client']);
  });
});
