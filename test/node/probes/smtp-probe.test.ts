import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** Every TypeScript file under `folder`, relative to the repository's root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
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

  it('reads a self-signed certificate whatever it is: its names, issuer and dates, not trusted, with Node’s reason', async () => {
    // Signed by its own key (the run's server keys: no RSA key is made for it).
    const selfSigned = await import('selfsigned').then(async ({ default: make }) => {
      const made = await make.generate([{ name: 'commonName', value: 'mx.example.net' }], {
        algorithm: 'sha256',
        ...(ca.serverKeys ? { keyPair: ca.serverKeys } : {}),
        extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'mx.example.net' }] }],
      });
      return { key: made.private, cert: made.cert };
    });
    const server = await serve(startSmtpServer({ tls: selfSigned }));
    const result = await probe(server.port, 'mx.example.net');
    expect(smtpProbeSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      status: 'ok',
      starttls: true,
      tls: { version: expect.stringMatching(/^TLSv1\.[23]$/) },
      certificate: {
        subject_names: ['mx.example.net'],
        issuer: expect.stringContaining('mx.example.net'),
        trusted: false,
        name_matches: true,
        trust_error: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      },
      detail: 'the certificate does not verify for mx.example.net: DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    expect(result.certificate!.days_left).toBeGreaterThan(0);
  });

  it('reads a certificate of a CA Node does not know: names and dates, and Node’s reason', async () => {
    // A CA of its own (on the run's server keys: only its name and signature are another's).
    const unknown = await makeCa('Unknown CA', ca.serverKeys);
    const server = await serve(
      startSmtpServer({
        tls: await issueCertificate({ ...unknown, serverKeys: ca.serverKeys }, ['mx.example.net']),
      }),
    );
    const result = await probe(server.port, 'mx.example.net');
    expect(result.certificate).toMatchObject({
      subject_names: ['mx.example.net'],
      issuer: expect.stringContaining('Unknown CA'),
      trusted: false,
      name_matches: true,
      trust_error: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER/),
    });
  });

  it('reads an expired certificate: its date and days left below zero, not trusted, CERT_HAS_EXPIRED', async () => {
    const notAfter = new Date(Date.now() - 10 * 86_400_000);
    const expired = await issueCertificate(ca, ['mx.example.net'], {
      notBefore: new Date(Date.now() - 100 * 86_400_000),
      notAfter,
    });
    const server = await serve(startSmtpServer({ tls: expired }));
    const result = await probe(server.port, 'mx.example.net');
    expect(result).toMatchObject({
      status: 'ok',
      starttls: true,
      certificate: {
        subject_names: ['mx.example.net'],
        issuer: expect.stringContaining('Reputation tools test CA'),
        trusted: false,
        name_matches: true,
        trust_error: 'CERT_HAS_EXPIRED',
      },
      detail: 'the certificate does not verify for mx.example.net: CERT_HAS_EXPIRED',
    });
    expect(result.certificate!.days_left).toBeLessThanOrEqual(-10);
    expect(Math.abs(Date.parse(result.certificate!.not_after) - notAfter.getTime())).toBeLessThan(
      86_400_000,
    );
  });

  it('sends nothing but QUIT over a handshake it did not verify', async () => {
    const expired = await issueCertificate(ca, ['mx.example.net'], {
      notBefore: new Date(Date.now() - 100 * 86_400_000),
      notAfter: new Date(Date.now() - 10 * 86_400_000),
    });
    // A server of its own, to hear every command, in the clear and inside TLS.
    const { createServer } = await import('node:net');
    const { TLSSocket } = await import('node:tls');
    const heard: string[] = [];
    let closed!: () => void;
    const ended = new Promise<void>((resolve) => (closed = resolve));
    const hear = (text: string) =>
      heard.push(
        ...text
          .split('\r\n')
          .filter((line) => line !== '')
          .map((line) => line.split(' ')[0]!),
      );
    const server = createServer((socket) => {
      socket.on('error', () => {});
      socket.on('close', () => closed());
      socket.setEncoding('utf8');
      socket.write('220 mx.example.net ESMTP\r\n');
      const onData = (text: string) => {
        hear(text);
        if (/^EHLO/im.test(text)) socket.write('250-mx.example.net\r\n250 STARTTLS\r\n');
        if (/^STARTTLS/im.test(text)) {
          socket.off('data', onData);
          socket.write('220 ready\r\n');
          const secure = new TLSSocket(socket, { isServer: true, ...expired });
          secure.on('error', () => {});
          secure.on('data', (data: Buffer) => hear(data.toString('utf8')));
        }
      };
      socket.on('data', onData);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ port: 0, close: () => new Promise((resolve) => server.close(() => resolve())) });
    const result = await probe((server.address() as { port: number }).port, 'mx.example.net');
    await ended;
    expect(result.certificate).toMatchObject({ trusted: false, trust_error: 'CERT_HAS_EXPIRED' });
    expect(heard.slice(0, 2)).toEqual(['EHLO', 'STARTTLS']);
    expect(heard.slice(2).filter((command) => command !== 'QUIT')).toEqual([]);
  });

  it('is the one client of src/ that finishes a handshake unverified: every other verifies', () => {
    const turningOff = sourceFiles('src').filter((file) =>
      /rejectUnauthorized\s*:\s*false|NODE_TLS_REJECT_UNAUTHORIZED/.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(turningOff).toEqual(['src/node/probes/smtp-probe.ts']);
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

  it('gives up on a tarpit (accepts, never greets) within the greeting’s own bound, half SMTP_TIMEOUT_MS', async () => {
    const tarpit = await serve(startTarpit());
    const started = performance.now();
    const result = await probe(tarpit.port, 'mx.example.net', '127.0.0.1', { timeoutMs: 1000 });
    const took = performance.now() - started;
    expect(result).toMatchObject({
      status: 'timeout',
      stage: 'greeting',
      banner: null,
      detail: 'greeting: no answer within 500 ms',
    });
    expect(took).toBeGreaterThanOrEqual(450);
    // Shorter than a stage's bound: the slot is free before a slow answer's would be.
    expect(took).toBeLessThan(1000);
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
