import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSmtpProber, type SmtpProbeOptions } from '../../../src/node/probes/index.js';
import { smtpProbeSchema } from '../../../src/reputation/results/index.js';
import { freePort } from '../../../fixtures/free-port.js';
import {
  issueCertificate,
  type Listening,
  makeCa,
  type Pem,
  startSmtpServer,
  startTarpit,
} from '../../../fixtures/mail-world.js';

const ca = inject('mailCa');
const loopback = (address: string) => address.startsWith('127.');
const servers: Listening[] = [];
let good: Pem;

function prober(port: number, overrides: Partial<SmtpProbeOptions> = {}) {
  return createSmtpProber({
    port,
    timeoutMs: 2000,
    reachable: loopback,
    ehloName: 'probe.test',
    maxConcurrent: 8,
    ...overrides,
  });
}

async function serve<T extends Listening>(started: Promise<T>): Promise<T> {
  const server = await started;
  servers.push(server);
  return server;
}

const probe = (
  port: number,
  host: string,
  address = '127.0.0.1',
  overrides: Partial<SmtpProbeOptions> = {},
) =>
  prober(port, overrides).probe({
    host,
    address,
    operator: true,
    signal: new AbortController().signal,
  });

beforeAll(async () => {
  good = await issueCertificate(ca, ['mx.example.net']);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe('the SMTP probe', () => {
  it('greets, offers STARTTLS, completes the handshake with SNI and reads a trusted certificate', async () => {
    const server = await serve(startSmtpServer({ tls: good, banner: 'mx.example.net ESMTP test' }));
    const result = await probe(server.port, 'mx.example.net');
    expect(smtpProbeSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      status: 'ok',
      stage: null,
      address: '127.0.0.1',
      starttls: true,
      tls: { version: expect.stringMatching(/^TLSv1\.[23]$/) },
      certificate: {
        subject_names: ['mx.example.net'],
        trusted: true,
        name_matches: true,
        trust_error: null,
      },
    });
    expect(result.banner).toContain('mx.example.net ESMTP test');
    expect(result.certificate!.days_left).toBeGreaterThanOrEqual(88);
    expect(result.certificate!.issuer).toContain('Reputation tools test CA');
  });

  it('reports a certificate for another name: name_matches false, and Node does not trust it for this host', async () => {
    const server = await serve(startSmtpServer({ tls: good }));
    const result = await probe(server.port, 'other.example.org');
    expect(result).toMatchObject({
      status: 'ok',
      certificate: {
        trusted: false,
        name_matches: false,
        trust_error: 'ERR_TLS_CERT_ALTNAME_INVALID',
      },
    });
  });

  it('does not trust a certificate of another CA (a self-signed one)', async () => {
    // A CA of its own (on the run's server keys: only its name and signature are another's).
    const unknown = await makeCa('Unknown CA', ca.serverKeys);
    const selfSigned = await issueCertificate({ ...unknown, serverKeys: ca.serverKeys }, [
      'mx.example.net',
    ]);
    const server = await serve(startSmtpServer({ tls: selfSigned }));
    const result = await probe(server.port, 'mx.example.net');
    // Node's verification ends the handshake before its names are read: nothing to show of it.
    expect(result).toMatchObject({ status: 'ok', starttls: true, tls: null, certificate: null });
    expect(result.detail).toMatch(/UNABLE_TO|SELF_SIGNED/);
  });

  it('reports an expired certificate as not verified, with Node’s reason', async () => {
    const expired = await issueCertificate(ca, ['mx.example.net'], {
      notBefore: new Date(Date.now() - 100 * 86_400_000),
      notAfter: new Date(Date.now() - 10 * 86_400_000),
    });
    const server = await serve(startSmtpServer({ tls: expired }));
    const result = await probe(server.port, 'mx.example.net');
    expect(result).toMatchObject({ status: 'ok', starttls: true, tls: null, certificate: null });
    expect(result.detail).toMatch(/CERT_HAS_EXPIRED/);
  });

  it('reports no_starttls for a server that does not offer it, and does not try', async () => {
    const server = await serve(startSmtpServer({}));
    const result = await probe(server.port, 'mx.example.net');
    expect(result).toMatchObject({
      status: 'no_starttls',
      stage: 'ehlo',
      starttls: false,
      tls: null,
      certificate: null,
    });
  });

  it('gives up on a tarpit (accepts, never greets) within SMTP_TIMEOUT_MS', async () => {
    const tarpit = await serve(startTarpit());
    const started = performance.now();
    const result = await probe(tarpit.port, 'mx.example.net', '127.0.0.1', { timeoutMs: 500 });
    const took = performance.now() - started;
    expect(result).toMatchObject({ status: 'timeout', stage: 'greeting', banner: null });
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(1500);
  });

  it('ends at once when the check’s signal aborts', async () => {
    const tarpit = await serve(startTarpit());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const result = await prober(tarpit.port, { timeoutMs: 5000 }).probe({
      host: 'mx.example.net',
      address: '127.0.0.1',
      operator: true,
      signal: controller.signal,
    });
    expect(result).toMatchObject({ status: 'timeout', stage: 'greeting' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reports refused for a port nothing listens on', async () => {
    const result = await probe(await freePort(), 'mx.example.net');
    expect(result).toMatchObject({ status: 'refused', stage: 'connect' });
  });

  it('never connects to an address the rule refuses', async () => {
    const server = await serve(startSmtpServer({ tls: good }));
    const result = await probe(server.port, 'mx.example.net', '127.0.0.1', {
      reachable: () => false,
    });
    expect(result).toMatchObject({ status: 'not_probed', address: '127.0.0.1' });
    expect(server.sessions()).toBe(0);
  });

  it('reports a 554 greeting as an error with the server’s words', async () => {
    const { createServer } = await import('node:net');
    const refusing = createServer((socket) => socket.end('554 no service here\r\n'));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    servers.push({
      port: 0,
      close: () => new Promise((resolve) => refusing.close(() => resolve())),
    });
    const result = await probe((refusing.address() as { port: number }).port, 'mx.example.net');
    expect(result).toMatchObject({ status: 'error', stage: 'greeting' });
    expect(result.detail).toContain('554 no service here');
  });

  it('reports no_starttls for a server that refuses EHLO (plain SMTP, RFC 5321 §4.1.4)', async () => {
    const { createServer } = await import('node:net');
    const heloOnly = createServer((socket) => {
      socket.on('error', () => {});
      socket.write('220 old.example.net SMTP\r\n');
      socket.on('data', (line: Buffer) => {
        if (line.toString().startsWith('EHLO')) socket.write('502 command not implemented\r\n');
        else socket.end('221 bye\r\n');
      });
    });
    await new Promise<void>((resolve) => heloOnly.listen(0, '127.0.0.1', resolve));
    servers.push({
      port: 0,
      close: () => new Promise((resolve) => heloOnly.close(() => resolve())),
    });
    const result = await probe((heloOnly.address() as { port: number }).port, 'mx.example.net');
    expect(result).toMatchObject({ status: 'no_starttls', stage: 'ehlo', starttls: false });
  });

  it('refuses a reply larger than 16 KB instead of reading on', async () => {
    const { createServer } = await import('node:net');
    const flooding = createServer((socket) => {
      socket.on('error', () => {});
      socket.write(`220-${'x'.repeat(1000)}\r\n`.repeat(40));
    });
    await new Promise<void>((resolve) => flooding.listen(0, '127.0.0.1', resolve));
    servers.push({
      port: 0,
      close: () =>
        new Promise((resolve) => {
          flooding.close(() => resolve());
        }),
    });
    const result = await probe((flooding.address() as { port: number }).port, 'mx.example.net');
    expect(result).toMatchObject({ status: 'error', stage: 'greeting' });
    expect(result.detail).toMatch(/16 KB/);
  });
});
