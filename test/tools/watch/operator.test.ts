import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../../../fixtures/smtp-inbox.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../fixtures/webhook-receiver.js';
import {
  expectError,
  postError,
  startTestService,
  type TestService,
} from '../../support/service.js';
import { type CreatedWatch, createWatch, send } from './support.js';

/**
 * What WEBHOOK_ALLOW_NETWORKS opens, and to whom (docs/watches.md, "Safety"): only watches created
 * with `Authorization: Bearer <OPERATOR_TOKEN>` reach it, at creation, on a PATCH and at each
 * delivery; and the last delivery's outcome, which would map what answers there, is shown to the
 * manage key's holder only. Over HTTP against the real app, with a real receiver on 127.0.0.1.
 */

const target = '8.8.100.9';
const operatorToken = 'operator-token-0123456789';
const operator = { authorization: `Bearer ${operatorToken}` };
const inside = (receiver: WebhookReceiver) => receiver.url('/inside');
const outside = 'https://hooks.example.com/hook';

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(env: Record<string, string> = {}): Promise<TestService> {
  service = await startTestService({
    env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', OPERATOR_TOKEN: operatorToken, ...env },
  });
  return service;
}

async function created(
  s: TestService,
  webhookUrl: string,
  headers: Record<string, string> = {},
): Promise<CreatedWatch> {
  const response = await s.post('/watch/v1', { target, webhook_url: webhookUrl }, headers);
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedWatch;
}

const bodyError = (code: string) => ({ status: 'error', code, error: expect.any(String) });

describe('an address inside WEBHOOK_ALLOW_NETWORKS', () => {
  it('is refused to a creation without the operator’s token, or with another token', async () => {
    const s = await start();
    const body = { target, webhook_url: inside(receiver) };
    await expectError(await s.post('/watch/v1', body), 400, postError('invalid_webhook'));
    await expectError(
      await s.post('/watch/v1', body, { authorization: 'Bearer not-the-operator-token-0' }),
      400,
      postError('invalid_webhook'),
    );
    await created(s, inside(receiver), operator);
  });

  it('is refused to every creation when no OPERATOR_TOKEN is set', async () => {
    const s = await startTestService({ env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
    service = s;
    await expectError(
      await s.post('/watch/v1', { target, webhook_url: inside(receiver) }, operator),
      400,
      postError('invalid_webhook'),
    );
  });

  it('is refused to a PATCH of a watch not created with the token, and allowed to one that was', async () => {
    const s = await start();
    const anonymous = await created(s, outside);
    const patch = (watch: CreatedWatch) =>
      send(s, 'PATCH', `/watch/v1/${watch.id}`, {
        body: { webhook_url: inside(receiver) },
        key: watch.manage_key,
      });
    await expectError(await patch(anonymous), 400, bodyError('invalid_webhook'));
    const operators = await created(s, outside, operator);
    expect((await patch(operators)).status).toBe(200);
  });
});

describe('the public view', () => {
  it('shows the last delivery’s outcome to the manage key’s holder only', async () => {
    const s = await start();
    const watch = await created(s, inside(receiver), operator);
    receiver.answer(503);
    const queued = await send(s, 'POST', `/watch/v1/${watch.id}/test`, { key: watch.manage_key });
    expect(queued.status).toBe(202);
    const asOwner = async () =>
      (
        (await (
          await s.get(`/watch/v1/${watch.id}`, { authorization: `Bearer ${watch.manage_key}` })
        ).json()) as { webhook: { last_delivery: unknown } }
      ).webhook.last_delivery;
    await expect
      .poll(asOwner, { timeout: 10_000, interval: 100 })
      .toMatchObject({ outcome: 'failed', status: 503 });
    const view = (await (await s.get(`/watch/v1/${watch.id}`)).json()) as {
      webhook: { last_delivery: unknown; origin: string };
    };
    expect(view.webhook).toMatchObject({
      last_delivery: null,
      origin: new URL(inside(receiver)).origin,
    });
    const wrong = await s.get(`/watch/v1/${watch.id}`, { authorization: 'Bearer wrong-key' });
    await expectError(wrong, 403, bodyError('manage_key_wrong'));
    receiver.answer(204);
  });
});

describe('the caps of a caller', () => {
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
  });
  afterAll(() => inbox.close());

  it('do not bind the operator: its token lifts the watches per caller and per network, WATCH_MAX stays', async () => {
    const s = await start({ WATCH_PER_CALLER: '2', WATCH_PER_NETWORK: '2', WATCH_MAX: '5' });
    await createWatch(s, { target });
    await createWatch(s, { target });
    // A stranger past its two: refused, while the operator, from the same address, is not.
    await expectError(await s.post('/watch/v1', { target }), 429, postError('watch_limit'));
    for (let i = 0; i < 3; i++) await createWatch(s, { target }, operator);
    // The service's capacity binds the operator too: its five are taken.
    await expectError(
      await s.post('/watch/v1', { target }, operator),
      503,
      postError('watch_capacity'),
    );
  });

  it('do not bind the operator’s confirmation e-mails, while a mailbox still gets 3 a day', async () => {
    const s = await start({
      SMTP_URL: inbox.url,
      ALERT_FROM: 'alerts@rep.example.org',
      PUBLIC_URL: 'https://rep.example.org',
    });
    const before = inbox.received.length;
    // Four addresses from one caller: a stranger's fourth is refused, the operator's are sent.
    for (let i = 0; i < 3; i++) await createWatch(s, { target, email: `a${i}@example.org` });
    await expectError(
      await s.post('/watch/v1', { target, email: 'a3@example.org' }),
      429,
      postError('email_limit'),
    );
    for (let i = 0; i < 4; i++) {
      await createWatch(s, { target, email: `op${i}@example.org` }, operator);
    }
    await inbox.waitFor(before + 7);
    // One mailbox's three a day hold for everyone, the operator included.
    for (let i = 0; i < 2; i++) {
      await createWatch(s, { target, email: 'op0@example.org' }, operator);
    }
    const fourth = await s.post('/watch/v1', { target, email: 'op0@example.org' }, operator);
    const refusal = ((await fourth.clone().json()) as { error: string }).error;
    await expectError(fourth, 429, postError('email_limit'));
    expect(refusal).toBe(
      'at most 3 confirmation messages a day go to one mailbox (its +tag and dot variants are one); try again after 00:00 UTC',
    );
  });
});
