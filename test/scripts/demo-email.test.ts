import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../fixtures/free-port.js';
import { issueCertificate } from '../../fixtures/mail-world.js';
import { type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.js';

/**
 * `npm run demo` with a relay whose STARTTLS certificate has expired (docs/watches.md, "E-mail"):
 * the demo, at its own log level, prints at start why SMTP_URL does not work, and the watch shows
 * its creator the confirmation's failure and why. The demo runs in a process of its own, its mail
 * CA the run's test CA (which issued the relay's expired certificate).
 */

const ca = inject('mailCa');
const tsxLoader = import.meta.resolve('tsx');
const demoScript = fileURLToPath(new URL('../../scripts/demo.ts', import.meta.url));
const dayMs = 86_400_000;

let demo: ChildProcessByStdio<null, Readable, Readable> | undefined;
let inbox: SmtpInbox | undefined;
let caDir: string | undefined;
afterEach(async () => {
  if (demo && demo.exitCode === null) {
    const exited = new Promise((resolve) => demo!.once('exit', resolve));
    demo.kill('SIGTERM');
    await exited;
  }
  await inbox?.close();
  if (caDir) rmSync(caDir, { recursive: true, force: true });
});

describe('npm run demo with an SMTP relay whose certificate has expired', () => {
  it('says so at start, and on the watch to its manage key’s holder', async () => {
    const expired = await issueCertificate(ca, ['relay.test'], {
      notBefore: new Date(Date.now() - 100 * dayMs),
      notAfter: new Date(Date.now() - dayMs),
    });
    inbox = await startSmtpInbox({ tls: expired });
    // The demo's mail CA is the test CA, already made: the demo trusts it from its start.
    caDir = mkdtempSync(join(tmpdir(), 'demo-email-ca-'));
    writeFileSync(join(caDir, 'ca-cert.pem'), ca.cert);
    writeFileSync(join(caDir, 'ca-key.pem'), ca.key);
    const port = await freePort();
    demo = spawn(process.execPath, ['--import', tsxLoader, demoScript], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DEMO_MAIL_CA_DIR: caDir,
        NODE_EXTRA_CA_CERTS: ca.file,
        PORT: String(port),
        SMTP_URL: `${inbox.url}?tls.servername=relay.test`,
        ALERT_FROM: 'demo@rep.example.org',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    demo.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    demo.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 30_000 }).toMatch(/SMTP_URL does not work/);
    const line = output.split('\n').find((found) => found.includes('SMTP_URL does not work'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 'warn' });
    expect(line).toMatch(/certificate has expired/);
    await expect.poll(() => output, { timeout: 30_000 }).toContain('Ctrl-C stops it.');

    const base = `http://127.0.0.1:${port}/tools/ip-reputation`;
    const created = await fetch(`${base}/watch/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: '192.0.3.40', email: 'me@example.org' }),
    });
    expect(created.status).toBe(201);
    const watch = (await created.json()) as { id: string; manage_key: string };
    const reasonOnTheWatch = async () => {
      const view = (await (
        await fetch(`${base}/watch/v1/${watch.id}`, {
          headers: { authorization: `Bearer ${watch.manage_key}` },
        })
      ).json()) as { email: { last_delivery?: { outcome: string; reason?: string } } };
      return view.email.last_delivery;
    };
    await expect.poll(reasonOnTheWatch, { timeout: 15_000 }).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(/certificate has expired/),
    });
    // The demo's log says it too, at warn.
    expect(output).toMatch(/"level":"warn","msg":"e-mail delivery failed"/);
  }, 60_000);
});
