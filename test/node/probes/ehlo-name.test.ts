import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAddressRange } from '../../../src/lib/index.js';
import { createNodeProbes, neutralEhloName } from '../../../src/node/probes/index.js';

/**
 * What the probe says of itself in EHLO, read by a real SMTP server on loopback: a server that
 * greets, writes down the EHLO line it is sent, and answers without STARTTLS.
 */

const servers: Server[] = [];

async function recordingServer(): Promise<{ port: number; ehlo: () => string | undefined }> {
  let ehlo: string | undefined;
  const server = createServer((socket) => {
    socket.write('220 mx.example.net ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('latin1').split('\r\n')) {
        if (/^EHLO /i.test(line)) {
          ehlo = line;
          socket.write('250 mx.example.net\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
      }
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, ehlo: () => ehlo };
}

async function ehloSent(publicUrl: string | undefined): Promise<string | undefined> {
  const server = await recordingServer();
  const probes = createNodeProbes({
    allowNetworks: [parseAddressRange('127.0.0.0/8')!],
    timeoutMs: 2000,
    smtpPort: server.port,
    httpsPort: 1,
    publicUrl,
    tlsaServers: [],
    dnsTimeoutMs: 1000,
  });
  if ('unavailable' in probes.smtp) throw new Error('Node probes SMTP');
  const result = await probes.smtp.probe({
    host: 'mx.example.net',
    address: '127.0.0.1',
    operator: true,
    signal: new AbortController().signal,
  });
  expect(result.status).toBe('no_starttls');
  return server.ehlo();
}

afterAll(async () => {
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

describe('the EHLO name', () => {
  it('is a neutral name of .invalid without PUBLIC_URL, never the machine’s host name', async () => {
    const line = await ehloSent(undefined);
    expect(line).toBe(`EHLO ${neutralEhloName}`);
    expect(line).not.toContain(hostname());
  });

  it('is the host of PUBLIC_URL when it is set', async () => {
    expect(await ehloSent('https://rep.example.org/tools')).toBe('EHLO rep.example.org');
  });

  it('is an address literal when PUBLIC_URL names an address (RFC 5321 §4.1.3)', async () => {
    expect(await ehloSent('http://[2001:db8::1]:8080')).toBe('EHLO [IPv6:2001:db8::1]');
    expect(await ehloSent('http://192.0.2.7')).toBe('EHLO [192.0.2.7]');
  });
});
