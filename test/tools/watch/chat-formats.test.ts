import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../fixtures/webhook-receiver.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import { drawn } from '../../support/chat-apps.js';
import {
  checkNtfy,
  discordMessageSchema,
  slackMessageSchema,
  telegramMessageSchema,
} from '../../support/chat-schemas.js';
import {
  expectError,
  postError,
  startTestService,
  type TestService,
} from '../../support/service.js';
import { type CreatedWatch, createWatch, send } from './support.js';

/**
 * Chat formats over real HTTP (docs/watches.md, "Chat formats"): watches created on the real app
 * with the operator's token, re-checked by the service's own timer every second while the
 * fixture DNS world lists their address, each listing and each test delivered to a real receiver
 * on 127.0.0.1 in the watch's format and language; links absolute from the creating request.
 */

const operatorToken = 'operator-token-of-the-chat-tests';
const operator = { authorization: `Bearer ${operatorToken}` };
const target = '8.8.100.9';
const zoneList = await loadZoneList();
const listed = dnsblWorld(zoneList, { [target]: { 'zen.spamhaus.org': ['127.0.0.2'] } });
const formats = ['slack', 'discord', 'telegram', 'ntfy'] as const;
const langs = ['en', 'ru'] as const;

let service: TestService;
let receiver: WebhookReceiver;
const watches = new Map<string, CreatedWatch & { webhook_secret: string }>();
const pathOf = (format: string, lang: string) => `/chat/${format}/${lang}?chat_id=-100123`;
const receivedAt = (path: string) => receiver.received.filter((request) => request.path === path);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.answer((request) => (request.path.startsWith('/gone') ? 410 : 204));
  service = await startTestService({
    env: {
      WATCH_MIN_INTERVAL_S: '1',
      WATCH_PER_CALLER: '50',
      WATCH_PER_NETWORK: '50',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: operatorToken,
      WEBHOOK_TIMEOUT_MS: '3000',
    },
  });
  for (const format of formats) {
    for (const lang of langs) {
      const watch = await createWatch(
        service,
        {
          target,
          interval_s: 1,
          webhook_url: receiver.url(pathOf(format, lang)),
          webhook_format: format,
          lang,
        },
        operator,
      );
      watches.set(`${format}/${lang}`, watch as CreatedWatch & { webhook_secret: string });
    }
  }
  // Every watch began with the address clean: now a list lists it, and each re-check reports it.
  await service.setZones(listed);
}, 60_000);
afterAll(async () => {
  await service.close();
  await receiver.close();
});

/** What a delivery shows, as its app draws it: title, text, links by name. */
const shownBy = (format: (typeof formats)[number], request: ReceivedWebhook) =>
  drawn(format, request);

function expectShape(
  format: (typeof formats)[number],
  request: ReceivedWebhook,
  watch: CreatedWatch & { webhook_secret: string },
) {
  // Chat messages are signed as every delivery, over the bytes sent (ntfy's is no JSON, which
  // the package's verify would parse: the signature is computed again instead).
  const seconds = Number(request.headers['webhook-timestamp']);
  expect(request.headers['webhook-signature']).toBe(
    new Webhook(watch.webhook_secret).sign(
      request.headers['webhook-id']!,
      new Date(seconds * 1000),
      request.body,
    ),
  );
  if (format === 'ntfy') {
    expect(request.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(request.headers.click).toBe(watch.page_url);
    // A header is ASCII: a Russian title goes as an RFC 2047 encoded word.
    expect(request.headers.title).toMatch(/^[\x20-\x7e]+$/);
    expect(shownBy(format, request).title).toContain(target);
    checkNtfy(request);
    return;
  }
  expect(request.headers['content-type']).toBe('application/json');
  // As each app's schema and limits have it (docs/watches.md, "Chat formats").
  const schema = {
    slack: slackMessageSchema,
    discord: discordMessageSchema,
    telegram: telegramMessageSchema,
  }[format];
  const body = JSON.parse(request.body) as Record<string, unknown>;
  expect(schema.parse(body)).toEqual(body);
  if (format === 'telegram') expect(body.chat_id).toBe('-100123');
}

const expected = {
  en: {
    listed: 'is newly listed',
    verdict: 'Verdict',
    page: 'Watch page',
    delist: 'delisting page',
    test: 'Test message',
  },
  ru: {
    listed: 'новое попадание',
    verdict: 'Вердикт',
    page: 'Страница наблюдения',
    delist: 'страница исключения',
    test: 'Пробное сообщение',
  },
};

describe.each(formats)('webhook_format %s', (format) => {
  it.each(langs)(
    'delivers a listing in %s: what changed, the list and its links, the verdict, the page',
    async (lang) => {
      const watch = watches.get(`${format}/${lang}`)!;
      const path = pathOf(format, lang);
      await expect
        .poll(() => receivedAt(path).length, { timeout: 20_000, interval: 200 })
        .toBeGreaterThan(0);
      const [delivery] = receivedAt(path);
      expectShape(format, delivery!, watch);
      const shown = shownBy(format, delivery!);
      const words = expected[lang];
      expect(shown.title).toContain(words.listed);
      expect(shown.title).toContain('Spamhaus ZEN');
      expect(shown.text).toContain('zen.spamhaus.org');
      expect(shown.text).toContain('127.0.0.2');
      expect(shown.text).toContain(words.delist);
      expect(shown.links.map((link) => link.url)).toContainEqual(
        expect.stringMatching(/^https:\/\/\S*spamhaus\S*/),
      );
      expect(shown.text).toContain(words.verdict);
      // The watch page by name (Discord's embed title links to it).
      expect(shown.links).toContainEqual({
        label: format === 'discord' ? shown.title : words.page,
        url: watch.page_url,
      });
      expect(watch.page_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*\/share$/);
    },
    30_000,
  );

  it.each(langs)(
    'sends /test in the same format in %s',
    async (lang) => {
      const watch = watches.get(`${format}/${lang}`)!;
      const path = pathOf(format, lang);
      await expect
        .poll(() => receivedAt(path).length, { timeout: 20_000, interval: 200 })
        .toBeGreaterThan(0);
      // Its re-checks keep running: the test is the delivery that says the test's words.
      const isTest = (request: ReceivedWebhook) =>
        shownBy(format, request).title.includes(expected[lang].test);
      const response = await send(service, 'POST', `/watch/v1/${watch.id}/test`, {
        key: watch.manage_key,
      });
      expect(response.status).toBe(202);
      await expect
        .poll(() => receivedAt(path).filter(isTest).length, { timeout: 10_000, interval: 100 })
        .toBe(1);
      const delivery = receivedAt(path).find(isTest)!;
      expectShape(format, delivery, watch);
      expect(shownBy(format, delivery).links.map((link) => link.url)).toContain(watch.page_url);
      if (format === 'ntfy')
        expect(delivery.headers).toMatchObject({ tags: 'bell', priority: '2' });
    },
    30_000,
  );
});

describe('the format stored and shown', () => {
  it('shows each watch’s format and lang in its views', async () => {
    const watch = watches.get('telegram/ru')!;
    expect(watch.webhook).toMatchObject({ format: 'telegram' });
    expect(watch).toMatchObject({ lang: 'ru' });
    const view = (await (await service.get(`/watch/v1/${watch.id}`)).json()) as CreatedWatch;
    expect(view.webhook).toMatchObject({ format: 'telegram' });
    expect(view).toMatchObject({ lang: 'ru' });
  });

  it('answers 400 invalid_webhook for a format it does not know, on POST and PATCH', async () => {
    const body = { target, webhook_url: receiver.url('/bad'), webhook_format: 'teams' };
    await expectError(
      await service.post('/watch/v1', body, operator),
      400,
      postError('invalid_webhook'),
    );
    await expectError(
      await service.post('/watch/v1', { target, webhook_format: 'slack' }, operator),
      400,
      postError('invalid_webhook'),
    );
    const watch = watches.get('slack/en')!;
    const patched = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
      key: watch.manage_key,
      body: { webhook_format: 'Slack' },
    });
    expect(patched.status).toBe(400);
    expect(await patched.json()).toMatchObject({ code: 'invalid_webhook' });
  });

  it('changes the format with a PATCH and keeps the secret of the same URL', async () => {
    const watch = await createWatch(
      service,
      { target, webhook_url: receiver.url('/patched'), lang: 'en' },
      operator,
    );
    expect(watch.webhook).toMatchObject({ format: 'standard' });
    const patched = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
      key: watch.manage_key,
      body: { webhook_format: 'discord', lang: 'ru' },
    });
    expect(patched.status).toBe(200);
    const answer = (await patched.json()) as CreatedWatch;
    expect(answer.webhook).toMatchObject({ format: 'discord' });
    expect(answer).toMatchObject({ lang: 'ru' });
    expect(answer.webhook_secret).toBeUndefined();
  });

  it('removes a chat webhook that answers 410 Gone, as any webhook', async () => {
    const watch = await createWatch(
      service,
      { target, webhook_url: receiver.url('/gone/discord'), webhook_format: 'discord' },
      operator,
    );
    const test = await send(service, 'POST', `/watch/v1/${watch.id}/test`, {
      key: watch.manage_key,
    });
    expect(test.status).toBe(202);
    await expect
      .poll(
        async () =>
          ((await (await service.get(`/watch/v1/${watch.id}`)).json()) as CreatedWatch).webhook,
        { timeout: 10_000, interval: 100 },
      )
      .toBeNull();
    const [delivery] = receivedAt('/gone/discord');
    expect(drawn('discord', delivery!).title).toContain(target);
  });

  it('takes the language from Accept-Language when the body names none', async () => {
    const watch = await createWatch(
      service,
      { target, webhook_url: receiver.url('/accept-language') },
      { ...operator, 'accept-language': 'ru-RU,ru;q=0.9' },
    );
    expect(watch).toMatchObject({ lang: 'ru' });
  });
});
