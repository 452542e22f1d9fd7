import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../../fixtures/webhook-receiver.js';
import { type TestService, startTestService } from '../../support/service.js';
import { createWatch, send } from './support.js';

/**
 * POST /watch/v1/{id}/test over real HTTP on the Node server, its timer delivering to a real
 * receiver on 127.0.0.1 (docs/watches.md, "Fair delivery"): one pending test a watch, the second
 * answered 429 `test_pending` with Retry-After; a watch its owner paused takes none.
 */

const operatorToken = 'operator-token-of-the-tests';
const operator = { authorization: `Bearer ${operatorToken}` };

let service: TestService;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  service = await startTestService({
    env: {
      WATCH_MIN_INTERVAL_S: '60',
      // The receiver listens on 127.0.0.1: the operator's watches may reach it.
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: operatorToken,
      WEBHOOK_TIMEOUT_MS: '3000',
    },
  });
});
afterAll(async () => {
  await service.close();
  await receiver.close();
});

const tested = (path: string) => receiver.received.filter((request) => request.path === path);

describe('POST /watch/v1/{id}/test', () => {
  it('answers a second test while the first waits for its answer with 429 test_pending and Retry-After', async () => {
    receiver.answer((request) => (request.path === '/stalls' ? 'hang' : 204));
    const watch = await createWatch(
      service,
      {
        target: '8.8.100.9',
        webhook_url: receiver.url('/stalls'),
      },
      operator,
    );
    const path = `/watch/v1/${watch.id}/test`;
    const first = await send(service, 'POST', path, { key: watch.manage_key });
    expect(first.status).toBe(202);
    const refused = await Promise.all(
      [1, 2, 3].map(() => send(service, 'POST', path, { key: watch.manage_key })),
    );
    for (const response of refused) {
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('3');
      expect(await response.json()).toEqual({
        status: 'error',
        code: 'test_pending',
        error: expect.stringContaining('pending'),
      });
    }
    // The receiver never answers: the attempt ends with WEBHOOK_TIMEOUT_MS, and a test is taken.
    await expect.poll(() => tested('/stalls').length, { timeout: 5000 }).toBe(1);
    await expect
      .poll(async () => (await send(service, 'POST', path, { key: watch.manage_key })).status, {
        timeout: 8000,
        interval: 500,
      })
      .toBe(202);
  }, 20_000);

  it('answers 400 invalid_request for a watch its owner paused, and sends nothing', async () => {
    const watch = await createWatch(
      service,
      {
        target: '8.8.100.9',
        webhook_url: receiver.url('/owner-paused'),
      },
      operator,
    );
    const patched = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
      body: { paused: true },
      key: watch.manage_key,
    });
    expect(patched.status).toBe(200);
    const refused = await send(service, 'POST', `/watch/v1/${watch.id}/test`, {
      key: watch.manage_key,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid_request' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(tested('/owner-paused')).toEqual([]);
  });
});
