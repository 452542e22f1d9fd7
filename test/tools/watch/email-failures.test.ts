import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { issueCertificate } from '../../../fixtures/mail-world.js';
import { type SmtpInbox, startSmtpInbox } from '../../../fixtures/smtp-inbox.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../fixtures/webhook-receiver.js';
import { confirmationRetryDelaysMs } from '../../../src/watch/model/index.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createWatch, send } from './support.js';

/**
 * Failures that show (docs/watches.md, "E-mail", "Deliveries"): SMTP_URL tried at start, a relay
 * whose STARTTLS certificate has expired said so in one `warn` line and on the watch (to the
 * manage key's holder, with the reason), a confirmation that failed costing no one the day's
 * allowance and retried within minutes; a permanent 5xx not retried, the failure's log line
 * without the address; a webhook's failure at `warn` with its reason. Real HTTP, real SMTP
 * servers on 127.0.0.1 with certificates of the run's test CA.
 */

const ca = inject('mailCa');
const target = '8.8.100.9';
const publicUrl = 'https://rep.example.org';
const dayMs = 86_400_000;

interface Line {
  level: string;
  msg: string;
  [field: string]: unknown;
}

const linesOf = (service: TestService, msg: RegExp): Line[] =>
  service.logs.map((line) => JSON.parse(line) as Line).filter((line) => msg.test(line.msg));

interface EmailView {
  address: string;
  confirmed: boolean;
  last_delivery?: {
    outcome: 'sent' | 'failed';
    kind: 'confirm' | 'alert';
    at: string;
    reason?: string;
    retry_at?: string;
  };
}

async function emailOf(service: TestService, id: string, key?: string): Promise<EmailView> {
  const response = await service.get(
    `/watch/v1/${id}`,
    key ? { authorization: `Bearer ${key}` } : {},
  );
  return ((await response.json()) as { email: EmailView }).email;
}

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('a relay whose STARTTLS certificate has expired', () => {
  let inbox: SmtpInbox;
  beforeAll(async () => {
    const expired = await issueCertificate(ca, ['relay.test'], {
      notBefore: new Date(Date.now() - 100 * dayMs),
      notAfter: new Date(Date.now() - dayMs),
    });
    inbox = await startSmtpInbox({ tls: expired });
  });
  afterAll(() => inbox.close());

  it('is said at start in one warn line, and on the watch to its manage key’s holder', async () => {
    service = await startTestService({
      env: {
        SMTP_URL: `${inbox.url}?tls.servername=relay.test`,
        ALERT_FROM: 'alerts@rep.example.org',
        PUBLIC_URL: publicUrl,
        TRUST_PROXY: '1',
      },
    });
    const s = service;
    // The service starts all the same, and says why the relay cannot work.
    await expect
      .poll(() => linesOf(s, /^SMTP_URL does not work/).length, { timeout: 10_000 })
      .toBe(1);
    const [start] = linesOf(s, /^SMTP_URL/);
    expect(start!.level).toBe('warn');
    expect(start!.msg).toMatch(/certificate has expired/);
    expect(start!.msg).not.toMatch(/\n/);

    const caller = { 'x-forwarded-for': '198.51.100.7' };
    const watch = await createWatch(s, { target, email: 'Owner@example.org' }, caller);
    await expect
      .poll(async () => (await emailOf(s, watch.id, watch.manage_key)).last_delivery, {
        timeout: 10_000,
      })
      .toBeDefined();
    const seen = await emailOf(s, watch.id, watch.manage_key);
    expect(seen.last_delivery).toMatchObject({ outcome: 'failed', kind: 'confirm' });
    expect(seen.last_delivery!.reason).toMatch(/certificate has expired/);
    // Tried again within minutes (the first retry 5 s on), not an hour.
    const wait = Date.parse(seen.last_delivery!.retry_at!) - Date.parse(seen.last_delivery!.at);
    expect(wait).toBe(confirmationRetryDelaysMs[0]);
    // Anyone else sees the masked address, and no outcome.
    expect(await emailOf(s, watch.id)).toEqual({ address: 'O***@example.org', confirmed: false });
    // Logged at warn with its reason, and without the address.
    const [failure] = linesOf(s, /^e-mail delivery failed$/);
    expect(failure).toMatchObject({ level: 'warn', kind: 'confirm', attempt: 1 });
    expect(String(failure!.reason)).toMatch(/certificate has expired/);
    expect(JSON.stringify(failure)).not.toContain('Owner@example.org');

    // A message never sent cost no one a confirmation: three new links of the same address,
    // from the same caller, are all accepted (without the give-back the third would be 429).
    for (let i = 1; i <= 3; i++) {
      const again = await send(s, 'PATCH', `/watch/v1/${watch.id}`, {
        key: watch.manage_key,
        body: { email: 'Owner@example.org' },
        headers: caller,
      });
      expect(again.status).toBe(200);
      await expect
        .poll(() => linesOf(s, /^e-mail delivery failed$/).filter((l) => l.attempt === 1).length, {
          timeout: 10_000,
        })
        .toBe(1 + i);
    }
    expect(inbox.received).toHaveLength(0);
  }, 60_000);
});

describe('a relay that refuses the recipient for good', () => {
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    inbox.refuseRecipients(true);
  });
  afterAll(() => inbox.close());

  it('is not tried again, and its reason is logged and shown with the address masked', async () => {
    service = await startTestService({
      env: { SMTP_URL: inbox.url, ALERT_FROM: 'alerts@rep.example.org', PUBLIC_URL: publicUrl },
      services: { watchRunner: { confirmRetryDelaysMs: [200, 200, 200] } },
    });
    const s = service;
    const watch = await createWatch(s, { target, email: 'nobody.home@example.org' });
    await expect.poll(() => inbox.recipientsAsked.length, { timeout: 10_000 }).toBe(1);
    // Three retries would have come within a second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(inbox.recipientsAsked).toEqual(['nobody.home@example.org']);
    const failures = linesOf(s, /^e-mail delivery failed$/);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 'warn', permanent: true });
    expect(String(failures[0]!.reason)).toMatch(/550/);
    expect(String(failures[0]!.reason)).toContain('n***@example.org');
    expect(s.logs.join('\n')).not.toContain('nobody.home@');
    const seen = await emailOf(s, watch.id, watch.manage_key);
    expect(seen.last_delivery).toMatchObject({ outcome: 'failed', kind: 'confirm' });
    expect(seen.last_delivery!.retry_at).toBeUndefined();
    expect(seen.last_delivery!.reason).not.toContain('nobody.home@');
  }, 30_000);
});

describe('a webhook that fails', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.answer(500);
  });
  afterAll(() => receiver.close());

  it('is logged at warn with its reason', async () => {
    const operatorToken = 'operator-token-of-the-failure-tests';
    service = await startTestService({
      env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', OPERATOR_TOKEN: operatorToken },
    });
    const s = service;
    const watch = await createWatch(
      s,
      { target, webhook_url: receiver.url('/failing') },
      { authorization: `Bearer ${operatorToken}` },
    );
    expect(
      (await send(s, 'POST', `/watch/v1/${watch.id}/test`, { key: watch.manage_key })).status,
    ).toBe(202);
    await expect
      .poll(() => linesOf(s, /^webhook delivery failed$/).length, { timeout: 10_000 })
      .toBe(1);
    expect(linesOf(s, /^webhook delivery failed$/)[0]).toMatchObject({
      level: 'warn',
      status: 500,
      reason: 'the receiver answered 500',
    });
  }, 30_000);
});
