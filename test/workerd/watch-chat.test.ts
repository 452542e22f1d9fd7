import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReceivedWebhook } from '../../fixtures/webhook-receiver.js';
import { drawn } from '../support/chat-apps.js';
import {
  checkNtfy,
  discordMessageSchema,
  slackMessageSchema,
  telegramMessageSchema,
} from '../support/chat-schemas.js';
import type { CreatedWatch, PublicWatch } from '../support/responses.js';
import { startTestService, startWebhookReceiver, type TestService } from './support/service.js';

/**
 * Chat formats and confirmed changes on Workers (docs/watches.md, "Chat formats", "Confirmed
 * changes"): watches made through the Worker's app, kept in the Durable Object store, re-checked
 * over DoH and delivered by the Workers sender (`fetch`) to a receiver the fixture service runs
 * in Node, while the fixture world lists and delists their addresses. The app's clock is the
 * test's and the runner is run as the watch clock's alarm runs it, so each re-check is one the
 * test chose.
 */

const operatorToken = 'operator-token-of-the-workerd-chat-tests';
const operator = { authorization: `Bearer ${operatorToken}` };
const zen = 'zen.spamhaus.org';
const interval = 3600;
/** WATCH_MIN_INTERVAL_S: the confirming re-check comes within it. */
const minIntervalS = 300;

let service: TestService;
let now = new Date();
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  service = await startTestService({
    now,
    env: {
      WATCH_MIN_INTERVAL_S: String(minIntervalS),
      WATCH_INTERVAL_S: String(interval),
      WATCH_PER_CALLER: '20',
      WATCH_PER_NETWORK: '20',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: operatorToken,
      WEBHOOK_TIMEOUT_MS: '3000',
      // A re-check over DoH to the fixture in Node: generous on a loaded machine, where a list
      // that answers late is silent, and a silent list neither confirms nor contradicts.
      DNS_TIMEOUT_MS: '2000',
      CHECK_DEADLINE_MS: '5000',
    },
  });
});
afterAll(() => service.close());

beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver.close();
  await service.world!.setWorld({ listings: {} });
});

type Watch = CreatedWatch & { webhook_secret: string };

async function createWatch(body: Record<string, unknown>): Promise<Watch> {
  const response = await service.post(
    '/watch/v1',
    { interval_s: interval, webhook_url: receiver.url, ...body },
    operator,
  );
  expect(response.status).toBe(201);
  return (await response.json()) as Watch;
}

async function viewOf(id: string): Promise<PublicWatch> {
  return (await (await service.get(`/watch/v1/${id}`)).json()) as PublicWatch;
}

/** Moves the clock to the watch's next check and runs every check and delivery due then. */
async function nextCheck(id: string): Promise<PublicWatch> {
  const due = Date.parse((await viewOf(id)).next_check_at!);
  now = new Date(Math.max(now.getTime(), due));
  service.setNow(now);
  await service.runWatchesUntilIdle();
  return viewOf(id);
}

/** The signature of a delivery, computed again over the bytes it carried (an ntfy body is no JSON). */
function expectSigned(request: ReceivedWebhook, secret: string): void {
  const seconds = Number(request.headers['webhook-timestamp']);
  expect(request.headers['webhook-signature']).toBe(
    new Webhook(secret).sign(
      request.headers['webhook-id']!,
      new Date(seconds * 1000),
      request.body,
    ),
  );
}

describe('chat formats on Workers', () => {
  it('delivers a Slack message once a listing is confirmed by the second re-check (confirmations 2)', async () => {
    const target = '185.220.101.40';
    const watch = await createWatch({ target, webhook_format: 'slack' });
    expect(watch).toMatchObject({ confirmations: 2, webhook: { format: 'slack' } });

    await service.world!.setWorld({ listings: { [target]: { [zen]: ['127.0.0.2'] } } });
    const heard = await nextCheck(watch.id);
    expect(await receiver.received()).toEqual([]);
    expect(heard.status?.listed_on).toEqual([]);
    // The confirming re-check comes within WATCH_MIN_INTERVAL_S, not an interval later.
    const soon = Date.parse(heard.next_check_at!) - Date.parse(heard.checked_at!);
    expect(soon).toBeGreaterThan(0);
    expect(soon).toBeLessThanOrEqual(minIntervalS * 1000);

    const confirmed = await nextCheck(watch.id);
    const received = await receiver.received();
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery!.headers['content-type']).toBe('application/json');
    expectSigned(delivery!, watch.webhook_secret);
    const body = JSON.parse(delivery!.body) as unknown;
    expect(slackMessageSchema.parse(body)).toEqual(body);
    const shown = drawn('slack', delivery!);
    expect(shown.title).toContain('is newly listed on Spamhaus ZEN');
    expect(shown.text).toContain(zen);
    expect(shown.text).toContain('127.0.0.2');
    expect(shown.text).toContain('Verdict');
    expect(shown.links).toContainEqual({ label: 'Watch page', url: watch.page_url });
    expect(watch.page_url).toMatch(/^http:\/\/edge\.test\/.*\/share$/);
    expect(confirmed.history).toHaveLength(1);
    expect(confirmed.status?.listed_on).toEqual([expect.objectContaining({ zone: zen })]);

    // Back at its interval, and the next re-check of the unchanged world sends nothing.
    await nextCheck(watch.id);
    expect(await receiver.received()).toHaveLength(1);
  });

  it('delivers an ntfy message: a text body with Title, Tags and Click, in Russian', async () => {
    const target = '185.220.101.41';
    const watch = await createWatch({
      target,
      webhook_format: 'ntfy',
      lang: 'ru',
      confirmations: 1,
    });
    await service.world!.setWorld({ listings: { [target]: { [zen]: ['127.0.0.2'] } } });
    await nextCheck(watch.id);

    const [delivery, ...more] = await receiver.received();
    expect(more).toEqual([]);
    expect(delivery!.headers['content-type']).toBe('text/plain; charset=utf-8');
    expectSigned(delivery!, watch.webhook_secret);
    expect(delivery!.headers.click).toBe(watch.page_url);
    expect(delivery!.headers).toMatchObject({ tags: 'rotating_light', priority: '4' });
    // A header is ASCII: the Russian title goes as an RFC 2047 encoded word.
    expect(delivery!.headers.title).toMatch(/^[\x20-\x7e]+$/);
    checkNtfy(delivery!);
    const { title } = drawn('ntfy', delivery!);
    expect(title).toContain('новое попадание');
    expect(title).toContain(target);
    expect(delivery!.body).toContain(zen);
    expect(delivery!.body).toContain('Вердикт:');
    expect(delivery!.body).toContain(`Страница наблюдения: ${watch.page_url}`);
  });
});

describe('a format changed while a delivery is pending, on Workers', () => {
  it('sends the retry in the new format: the message is built at each attempt from the event kept', async () => {
    const target = '185.220.101.46';
    const watch = await createWatch({ target, confirmations: 1 });
    expect(watch.webhook).toMatchObject({ format: 'standard' });
    await receiver.answer(500);
    await service.world!.setWorld({ listings: { [target]: { [zen]: ['127.0.0.2'] } } });
    await nextCheck(watch.id);
    const [failed] = await receiver.received();
    expect(JSON.parse(failed!.body)).toMatchObject({ type: 'watch.listed' });

    const patched = await service.fetch(service.url(`/watch/v1/${watch.id}`), {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${watch.manage_key}`,
      },
      body: JSON.stringify({ webhook_format: 'slack' }),
    });
    expect(patched.status).toBe(200);
    await receiver.answer(204);
    // The first retry is due 5 s after the failed attempt (docs/watches.md, "Deliveries").
    now = new Date(now.getTime() + 5_000);
    service.setNow(now);
    await service.runWatchesUntilIdle();

    const [, retried, ...more] = await receiver.received();
    expect(more).toEqual([]);
    expect(retried!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
    expectSigned(retried!, watch.webhook_secret);
    expect(JSON.parse(retried!.body)).toMatchObject({
      text: expect.stringContaining('is newly listed'),
      blocks: expect.any(Array),
    });
  });
});

describe('the test event on Workers', () => {
  it.each([
    ['discord', discordMessageSchema],
    ['telegram', telegramMessageSchema],
  ] as const)('is a %s message, signed, with the chat’s own fields', async (format, schema) => {
    const target = format === 'discord' ? '185.220.101.44' : '185.220.101.45';
    const watch = await createWatch({
      target,
      webhook_url: `${receiver.url}?chat_id=-100123`,
      webhook_format: format,
    });
    const queued = await service.fetch(service.url(`/watch/v1/${watch.id}/test`), {
      method: 'POST',
      headers: { authorization: `Bearer ${watch.manage_key}` },
    });
    expect(queued.status).toBe(202);
    await service.runWatchesUntilIdle();

    const [delivery, ...more] = await receiver.received();
    expect(more).toEqual([]);
    expect(delivery!.path).toBe('/hook?chat_id=-100123');
    expect(delivery!.headers['content-type']).toBe('application/json');
    expectSigned(delivery!, watch.webhook_secret);
    const body = JSON.parse(delivery!.body) as Record<string, unknown>;
    expect(schema.parse(body)).toEqual(body);
    const shown = drawn(format, delivery!);
    expect(shown.title).toContain('Test message');
    expect(shown.links.map((link) => link.url)).toContain(watch.page_url);
    // Telegram's sendMessage takes the chat from the body: copied from the URL's query.
    if (format === 'telegram') expect(body.chat_id).toBe('-100123');
  });
});

describe('confirmed changes on Workers', () => {
  it('reports to no one a listing heard by one re-check that then flips back', async () => {
    const target = '185.220.101.42';
    const watch = await createWatch({ target, webhook_format: 'slack' });

    await service.world!.setWorld({ listings: { [target]: { [zen]: ['127.0.0.2'] } } });
    const heard = await nextCheck(watch.id);
    expect(heard.status?.listed_on).toEqual([]);
    await service.world!.setWorld({ listings: {} });
    await nextCheck(watch.id);
    const after = await nextCheck(watch.id);

    expect(await receiver.received()).toEqual([]);
    expect(after.history).toEqual([]);
    expect(after.status?.listed_on).toEqual([]);
    // Nothing awaits confirmation: the watch is back at its own interval.
    expect(Date.parse(after.next_check_at!) - Date.parse(after.checked_at!)).toBe(interval * 1000);
  });

  it('reports the delisting of a confirmed listing once, when two re-checks agree', async () => {
    const target = '185.220.101.43';
    await service.world!.setWorld({ listings: { [target]: { [zen]: ['127.0.0.2'] } } });
    // Listed from its first check, which records what it heard at once.
    const watch = await createWatch({ target });
    expect(watch.status?.listed_on).toEqual([expect.objectContaining({ zone: zen })]);

    await service.world!.setWorld({ listings: {} });
    await nextCheck(watch.id);
    expect(await receiver.received()).toEqual([]);
    await nextCheck(watch.id);
    await nextCheck(watch.id);
    const events = (await receiver.received()).map(
      (request) =>
        JSON.parse(request.body) as { type: string; data: { removed: { zone: string }[] } },
    );
    expect(events.map((event) => event.type)).toEqual(['watch.delisted']);
    expect(events[0]!.data.removed).toEqual([expect.objectContaining({ zone: zen })]);
  });
});
