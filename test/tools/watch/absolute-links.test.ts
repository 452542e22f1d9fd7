import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../../fixtures/webhook-receiver.js';
import { inferWebhookFormat } from '../../../src/webhooks/index.js';
import type { WatchEvent } from '../../support/responses.js';
import { basePath, startTestService, type TestService } from '../../support/service.js';
import { createWatch, send } from './support.js';

/**
 * Absolute links and the format a URL's host takes (docs/watches.md, "Absolute links", "Chat
 * formats"): the page and badge URLs of every event are PUBLIC_URL's, or else the origin of the
 * request that created the watch; a watch on a well-known chat host takes its format. Over HTTP
 * against the real app, a real receiver on 127.0.0.1.
 */

const operatorToken = 'operator-token-of-the-link-tests';
const operator = { authorization: `Bearer ${operatorToken}` };
const target = '8.8.100.9';

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

/** The test event a new watch's webhook at `path` receives. */
async function testEvent(s: TestService, path: string): Promise<WatchEvent> {
  const watch = await createWatch(s, { target, webhook_url: receiver.url(path) }, operator);
  const response = await send(s, 'POST', `/watch/v1/${watch.id}/test`, { key: watch.manage_key });
  expect(response.status).toBe(202);
  await expect
    .poll(() => receiver.received.filter((request) => request.path === path).length, {
      timeout: 10_000,
    })
    .toBe(1);
  const delivery = receiver.received.find((request) => request.path === path)!;
  const event = JSON.parse(delivery.body) as WatchEvent;
  expect(event.data.watch.id).toBe(watch.id);
  return event;
}

describe('page_url and badge_url of an event', () => {
  it('are under PUBLIC_URL when it is set', async () => {
    const s = await start({ PUBLIC_URL: 'https://rep.example.org' });
    const { data } = await testEvent(s, '/public-url');
    const root = `https://rep.example.org${basePath}/watch/v1/${data.watch.id}`;
    expect(data.watch.page_url).toBe(`${root}/share`);
    expect(data.watch.badge_url).toBe(`${root}/badge.svg`);
  }, 20_000);

  it('are under the origin of the request that created the watch without PUBLIC_URL', async () => {
    const s = await start();
    const { data } = await testEvent(s, '/request-origin');
    const root = s.url(`/watch/v1/${data.watch.id}`);
    expect(root).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(data.watch.page_url).toBe(`${root}/share`);
    expect(data.watch.badge_url).toBe(`${root}/badge.svg`);
  }, 20_000);
});

describe('the format a URL’s host takes', () => {
  it.each([
    ['https://hooks.slack.com/services/T0/B0/x', 'slack'],
    ['https://HOOKS.SLACK.COM./services/T0/B0/x', 'slack'],
    ['https://discord.com/api/webhooks/1/abc', 'discord'],
    ['https://discordapp.com/api/webhooks/1/abc', 'discord'],
    ['https://discord.com/channels/1', 'standard'],
    ['https://api.telegram.org/bot123:abc/sendMessage?chat_id=1', 'telegram'],
    ['https://ntfy.sh/my-topic', 'ntfy'],
    ['https://ntfy.example.org/my-topic', 'standard'],
    ['https://hooks.slack.com.example.net/x', 'standard'],
    ['https://hooks.example.com/reputation', 'standard'],
  ])('%s is %s', (url, format) => {
    expect(inferWebhookFormat(url)).toBe(format);
  });

  it('is stored and shown for a watch that names none, and a named format wins', async () => {
    const s = await start({ WATCH_PER_CALLER: '10', WATCH_PER_NETWORK: '10' });
    for (const [url, format] of [
      ['https://hooks.slack.com/services/T0/B0/x', 'slack'],
      ['https://discord.com/api/webhooks/1/abc', 'discord'],
      ['https://api.telegram.org/bot123:abc/sendMessage?chat_id=1', 'telegram'],
      ['https://ntfy.sh/my-topic', 'ntfy'],
      ['https://hooks.example.com/reputation', 'standard'],
    ] as const) {
      const watch = await createWatch(s, { target, webhook_url: url });
      expect(watch.webhook).toMatchObject({ format });
      const view = (await (await s.get(`/watch/v1/${watch.id}`)).json()) as typeof watch;
      expect(view.webhook).toMatchObject({ format });
    }
    const named = await createWatch(s, {
      target,
      webhook_url: 'https://hooks.slack.com/services/T0/B0/x',
      webhook_format: 'standard',
    });
    expect(named.webhook).toMatchObject({ format: 'standard' });
    // A new URL without a format takes its host's again.
    const patched = await send(s, 'PATCH', `/watch/v1/${named.id}`, {
      key: named.manage_key,
      body: { webhook_url: 'https://ntfy.sh/other' },
    });
    expect(((await patched.json()) as typeof named).webhook).toMatchObject({ format: 'ntfy' });
  }, 20_000);
});
