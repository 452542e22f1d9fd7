import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keylessZoneList } from '../../../fixtures/keyless-lists.js';
import {
  issueCertificate,
  type Listening,
  startPolicyServer,
} from '../../../fixtures/mail-world.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { createPolicyFetcher, createSmtpProber } from '../../../src/node/probes/index.js';
import { checkMail, notProbed, type SmtpProbeRequest } from '../../../src/reputation/mail/index.js';
import { mailCheckResultSchema } from '../../../src/reputation/results/index.js';
import { memoryMailDeps } from '../../support/mail-deps.js';
import { memoryWorld } from '../../support/memory-resolver.js';

/**
 * Text a third party chooses enters the mail check's results cleaned (src/lib/third-party-text.ts):
 * an SMTP server's greeting and replies read by the real probe from a real server on loopback, an
 * MTA-STS policy body fetched by the real fetcher over HTTPS, and MX names that are not host names
 * (neither probed nor shown). Escape codes, direction overrides and NUL bytes become U+FFFD, and
 * nothing is longer than a few hundred characters.
 */

const ca = inject('mailCa');
const hostile = '\u001b[31m\u202emoc.knab\u0000 <!channel> @everyone';
// eslint-disable-next-line no-control-regex -- the control characters are what must not remain
const unsafe = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;
const servers: Server[] = [];
const listening: Listening[] = [];
let dns: MemoryDns;
const zones = await keylessZoneList();

/** An SMTP server on loopback that greets with `greeting` and answers EHLO with `ehlo`. */
async function hostileSmtp(greeting: string, ehlo: string): Promise<number> {
  const server = createServer((socket) => {
    socket.write(greeting);
    socket.on('data', (chunk: Buffer) => {
      if (/^EHLO /i.test(chunk.toString('latin1'))) socket.write(ehlo);
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function probe(port: number) {
  return createSmtpProber({
    port,
    timeoutMs: 2000,
    reachable: (address) => address.startsWith('127.'),
    ehloName: 'probe.test',
    maxConcurrent: 8,
  }).probe({
    host: 'mx.example.net',
    address: '127.0.0.1',
    operator: true,
    signal: new AbortController().signal,
  });
}

beforeAll(() => {
  dns = memoryWorld([
    {
      origin: 'net',
      records: {
        'hostile.net': {
          TXT: ['v=spf1 -all'],
          MX: [
            { exchange: '<!channel>.hostile.net', priority: 5 },
            { exchange: 'mx.hostile.net', priority: 10 },
          ],
        },
        'mx.hostile.net': { A: ['185.80.0.77'] },
        '_dmarc.hostile.net': { TXT: ['v=DMARC1; p=reject'] },
        '_mta-sts.hostile.net': { TXT: ['v=STSv1; id=1'] },
        'mta-sts.hostile.net': { A: ['127.0.0.1'] },
      },
    },
  ]);
});

afterAll(async () => {
  dns?.close();
  await Promise.all(listening.map((server) => server.close()));
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

describe('third-party text in the mail check', () => {
  it('keeps an SMTP greeting cleaned and clipped: no escape code, override or NUL, 300 characters at most', async () => {
    const port = await hostileSmtp(
      `220-${hostile} ${'x'.repeat(5000)}\r\n220 more\r\n`,
      '250 mx.example.net\r\n',
    );
    const result = await probe(port);
    expect(result.status).toBe('no_starttls');
    expect(result.banner).not.toMatch(unsafe);
    expect(result.banner).toContain('\ufffd');
    expect(Array.from(result.banner!).length).toBeLessThanOrEqual(300);
  });

  it('keeps an unexpected SMTP reply cleaned in the probe’s detail', async () => {
    const port = await hostileSmtp('220 mx.example.net\r\n', `554 5.7.1 ${hostile}\r\n`);
    const result = await probe(port);
    expect(result).toMatchObject({ status: 'no_starttls', stage: 'ehlo' });
    const reply = await hostileSmtp(`421 ${hostile}\r\n`, '');
    const refused = await probe(reply);
    expect(refused).toMatchObject({ status: 'error', stage: 'greeting' });
    expect(refused.detail).toContain('421');
    expect(refused.detail).not.toMatch(unsafe);
    expect(refused.banner).not.toMatch(unsafe);
  });

  it('keeps an MTA-STS policy body’s words cleaned in the result, and neither probes nor shows an MX name that is not a host name', async () => {
    const policyServer = await startPolicyServer({
      host: '127.0.0.1',
      tls: await issueCertificate(ca, ['mta-sts.hostile.net']),
      handler: (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(
          `version: STSv1\r\nmode: ${hostile}\r\nmx: mx.hostile.net\r\nmax_age: 86400\r\n`,
        );
      },
    });
    listening.push(policyServer);
    const asked: SmtpProbeRequest[] = [];
    const deps = {
      ...memoryMailDeps(dns, zones),
      // The operator's check: the MX host's public address and the policy host on loopback.
      reachable: () => true,
      policy: createPolicyFetcher({
        port: policyServer.port,
        timeoutMs: 2000,
        reachable: (address) => address.startsWith('127.'),
      }),
      smtp: {
        probe: async (request: SmtpProbeRequest) => {
          asked.push(request);
          return notProbed('this test records what is probed', request.address);
        },
      },
    };
    const outcome = await checkMail(
      deps,
      { name: 'hostile.net', display: 'hostile.net' },
      { operator: true },
    );
    if (!outcome.ok) throw new Error(outcome.reason);
    const result = mailCheckResultSchema.parse(outcome.result);
    expect(result.mta_sts.status).toBe('invalid');
    expect(result.mta_sts.detail).toContain('\ufffd');
    expect(result.mta_sts.detail).not.toMatch(unsafe);
    // The MX name of markup: not probed, not in the result; the host name beside it is.
    expect(asked.map((request) => request.host)).toEqual(['mx.hostile.net']);
    expect(result.mx.map((host) => host.host)).toEqual(['mx.hostile.net']);
    expect(JSON.stringify(result)).not.toContain('<!channel>.hostile.net');
    expect(result.notes).toContainEqual(expect.stringContaining('1 MX record names no host name'));
  });
});
