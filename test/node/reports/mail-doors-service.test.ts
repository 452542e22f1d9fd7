import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../../fixtures/dns-server.js';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import {
  type DovecotServer,
  messagesPerFolder,
  startDovecotServer,
} from '../../../fixtures/dovecot-server.js';
import { freePort, takenPort } from '../../../fixtures/free-port.js';
import { issueCertificate } from '../../../fixtures/mail-world.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import { doorSamples, sampleMessage } from '../../support/report-samples.js';
import {
  expectOneLineFailure,
  failedStart,
  killServerProcesses,
  startServerProcess,
} from '../../support/server-process.js';
import { sampleBytes } from './doors-world.js';

/**
 * The mail doors as `npm start` runs them (src/server.ts in a process of its own): with
 * REPORTS_SMTP_PORT and REPORTS_IMAP_URL set the service listens for mail and polls the mailbox,
 * a bad certificate file or a taken port stops its start with one line, and SIGTERM closes the
 * listener with the rest of the service.
 */

const operatorToken = 'an-operator-token-of-the-doors-service-tests';
const mxName = 'mx.reports.example.org';

let dns: FixtureDnsServer;
let dovecot: DovecotServer;
let folder: string;

beforeAll(async () => {
  const ca = inject('mailCa');
  const [mx, imap] = await Promise.all([
    issueCertificate(ca, [mxName]),
    issueCertificate(ca, ['127.0.0.1']),
  ]);
  folder = mkdtempSync(join(tmpdir(), 'mail-doors-service-'));
  writeFileSync(join(folder, 'cert.pem'), mx.cert);
  writeFileSync(join(folder, 'key.pem'), mx.key);
  [dns, dovecot] = await Promise.all([
    loadZoneList().then((zones) => startFixtureDnsServer({ zones: dnsblWorld(zones, {}) })),
    startDovecotServer({ tls: imap }),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all([dns?.close(), dovecot?.stop()]);
  rmSync(folder, { recursive: true, force: true });
});

afterEach(killServerProcesses);

/** The service's variables with both doors on. */
function doorsEnv(smtpPort: number): Record<string, string> {
  return {
    DNS_SERVERS: dns.address,
    STORE_URL: 'memory:',
    REPORTS_URL: 'memory:',
    OPERATOR_TOKEN: operatorToken,
    REPORTS_ADDRESS: 'dmarc@reports.example.org',
    REPORTS_SMTP_PORT: String(smtpPort),
    REPORTS_SMTP_HOST: '127.0.0.1',
    REPORTS_TLS_CERT: join(folder, 'cert.pem'),
    REPORTS_TLS_KEY: join(folder, 'key.pem'),
    REPORTS_IMAP_URL: dovecot.url,
    // The IMAP door trusts the run's test CA as every Node client does.
    NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '',
  };
}

async function imapFolders(): Promise<Record<string, number>> {
  const client = await dovecot.client();
  try {
    return await messagesPerFolder(client);
  } finally {
    await client.logout();
  }
}

describe('the service with its mail doors', () => {
  it('takes a report by SMTP into an inbox, polls the IMAP mailbox, and stops both on SIGTERM', async () => {
    const smtpPort = await freePort();
    const service = await startServerProcess(doorsEnv(smtpPort));
    const created = await fetch(`${service.url}/reports/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
      body: JSON.stringify({ domain: 'example.com' }),
    });
    expect(created.status).toBe(201);
    const inbox = (await created.json()) as { id: string; key: string; address: string };
    expect(inbox.address).toBe(`dmarc+${inbox.id}@reports.example.org`);

    const sample = doorSamples.find((s) => s.file.startsWith('aggregate/zoho.com'))!;
    const sender = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtpPort,
      requireTLS: true,
      tls: { servername: mxName },
    });
    const info = await sender.sendMail({
      envelope: { from: 'reports@zoho.example', to: inbox.address },
      raw: Buffer.from(sampleMessage(sample, sampleBytes(sample), inbox.address)),
    });
    sender.close();
    expect(info.response).toBe('250 2.6.0 1 report taken');
    const summary = await fetch(
      `${service.url}/reports/v1/${inbox.id}?from=2020-02-01&to=2020-02-29`,
      {
        headers: { authorization: `Bearer ${inbox.key}` },
      },
    );
    // Zoho's report of 2020-02-15: 8 records, 9 messages, none passing (hand count).
    expect(await summary.json()).toMatchObject({ dmarc: { reports: 1, messages: 9, pass: 0 } });

    // The poll at start made the folders the door moves messages to.
    await expect.poll(imapFolders, { timeout: 10_000 }).toMatchObject({ Processed: 0, Invalid: 0 });
    expect(service.lines).toContainEqual(
      expect.objectContaining({ msg: 'reports smtp listening', port: smtpPort, tls: true }),
    );

    expect(await service.stop('SIGTERM')).toBe(0);
    await expect(fetch(`http://127.0.0.1:${smtpPort}/`)).rejects.toThrow();
  });

  it('stops its start with one line when REPORTS_TLS_CERT cannot be read', async () => {
    const failure = await failedStart({
      ...doorsEnv(await freePort()),
      REPORTS_TLS_CERT: join(folder, 'missing.pem'),
    });
    expect(expectOneLineFailure(failure)).toMatch(
      /^REPORTS_TLS_CERT .*missing\.pem cannot be read: there is no such file$/,
    );
  });

  it('stops its start with one line naming REPORTS_SMTP_PORT when the port is taken', async () => {
    const taken = await takenPort();
    try {
      const failure = await failedStart(doorsEnv(taken.port));
      expect(expectOneLineFailure(failure)).toBe(
        `port ${taken.port} is in use on 127.0.0.1: stop the other process or set REPORTS_SMTP_PORT`,
      );
    } finally {
      await taken.release();
    }
  });
});
