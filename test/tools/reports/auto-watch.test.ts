import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../../fixtures/webhook-receiver.js';
import { freshRedisUrl } from '../../support/redis.js';
import { startTestService, type TestService } from '../../support/service.js';
import {
  autoWatchOf,
  dateBefore,
  deliveredTo,
  domain,
  failingOf,
  listedOf,
  patchAutoWatch,
  until,
  uploadRows,
  watchedIps,
  world,
} from './auto-watch-support.js';
import { type CreatedInbox, createInbox, send } from './support.js';

/**
 * Reports meet watches over real HTTP against the real app (docs/reports.md, "Reports meet
 * watches"), with the service's own timers running the inboxes and the watches, and a webhook
 * receiver on 127.0.0.1 that verifies every delivery with Standard Webhooks' own verifier and the
 * secret PATCH answered. The same story on the memory store, a SQLite file and a redis-server,
 * where the auto-watch keeps its records and queue: the sources that qualify get watches (most
 * messages first, within the cap), their alerts reach the inbox's webhook, a failing source is
 * announced once, the watches are renewed daily, follow a changed destination, and go when a
 * source stops sending, when auto_watch is turned off and when the inbox is erased.
 */

const operator = 'operator-token-of-the-auto-watch-tests';
const top = '8.8.100.31';
const second = '8.8.100.32';
const third = '8.8.100.33';
const small = '8.8.100.34';
const failing = '8.8.100.35';
const newlyFailing = '8.8.100.36';
const hourMs = 3_600_000;

const stores = [
  { name: 'memory', env: async () => ({ STORE_URL: 'memory:' }) },
  {
    name: 'a SQLite file',
    // The report store lies beside it (reports.db), as REPORTS_URL's default puts it.
    env: async () => ({
      STORE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'auto-watch-')), 'store.db')}`,
    }),
  },
  {
    name: 'a redis-server',
    env: async () => ({ STORE_URL: await freshRedisUrl(), REPORTS_URL: 'memory:' }),
  },
];

describe.each(stores)('auto_watch on $name', ({ env }) => {
  let service: TestService;
  let receiver: WebhookReceiver;
  let inbox: CreatedInbox;
  let secret: string;
  /** How far the service's time runs ahead of the real one: the tests move it a day, a month. */
  let offset = 0;
  const serviceNow = () => Date.now() + offset;
  /** The service's clock runs on from `offset` ahead (its timers need time that flows). */
  let flowing: NodeJS.Timeout | undefined;
  function moveTime(byMs: number): void {
    offset += byMs;
    service.setNow(new Date(serviceNow()));
    clearInterval(flowing);
    flowing = setInterval(() => service.setNow(new Date(serviceNow())), 20);
  }

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    service = await startTestService({
      env: {
        ...(await env()),
        OPERATOR_TOKEN: operator,
        // The receiver is on 127.0.0.1: an inbox made with OPERATOR_TOKEN may reach it.
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
        REPORTS_AUTOWATCH_MAX: '2',
        WATCH_MIN_INTERVAL_S: '1',
        WATCH_INTERVAL_S: '1',
      },
      services: { autoWatch: { debounceMs: 100 }, watchRunner: { retryDelaysMs: [200, 500] } },
    });
    inbox = await createInbox(service, { domain }, { authorization: `Bearer ${operator}` });
  });
  afterAll(async () => {
    clearInterval(flowing);
    await service.close();
    await receiver.close();
  });

  const delivered = () => deliveredTo(receiver, '/inbox', secret);

  it('watches the sources that passed DMARC with min_messages, most messages first within REPORTS_AUTOWATCH_MAX, and announces the failing one, signed with the secret PATCH answered', async () => {
    await uploadRows(service, inbox, dateBefore(serviceNow(), 2), [
      { ip: top, count: 500, dkim: true, spf: true },
      { ip: second, count: 300, dkim: true },
      { ip: third, count: 200, spf: true },
      { ip: small, count: 99, dkim: true, spf: true },
      { ip: failing, count: 150 },
    ]);
    const answer = await patchAutoWatch(service, inbox, {
      webhook_url: receiver.url('/inbox'),
      min_messages: 100,
    });
    expect(answer.webhook_secret).toMatch(/^whsec_/);
    secret = answer.webhook_secret!;

    await until(async () => (await watchedIps(service, inbox)).length === 2, 'two watches');
    expect(await watchedIps(service, inbox)).toEqual([top, second].sort());
    for (const watch of (await autoWatchOf(service, inbox)).watches) {
      const view = await service.fetch(watch.watch_url);
      expect(await view.json()).toMatchObject({ target: watch.ip, kind: 'ip', ended: false });
    }

    await until(() => failingOf(delivered(), failing).length === 1, 'reports.source_failing');
    const [announced] = failingOf(delivered(), failing);
    expect(announced!.event).toEqual({
      type: 'reports.source_failing',
      created_at: expect.any(String),
      data: {
        inbox_id: inbox.id,
        domain,
        source_ip: failing,
        messages: 150,
        pass: 0,
        fail: 150,
        min_messages: 100,
        period: { from: dateBefore(serviceNow(), 29), to: dateBefore(serviceNow(), 0) },
        reporters: ['google.com'],
        view_url: inbox.view_url,
      },
    });
    expect(announced!.request.headers['webhook-id']).toMatch(/^evt_/);
    // Only the failing source with min_messages: the others passed, or sent too little.
    expect(delivered().filter(({ event }) => event.type === 'reports.source_failing')).toHaveLength(
      1,
    );
  });

  it('sends a watched source’s listing to the inbox’s webhook, signed with the inbox’s secret', async () => {
    await service.setZones(world({ [top]: { 'zen.spamhaus.org': ['127.0.0.2'] } }));
    await until(() => listedOf(delivered(), top).length > 0, 'watch.listed of the top source');
    await service.setZones(world());
  });

  it('announces a failing source once however many reports name it, and a newly failing one when it comes', async () => {
    await uploadRows(service, inbox, dateBefore(serviceNow(), 1), [
      { ip: failing, count: 400 },
      { ip: newlyFailing, count: 120, disposition: 'reject' },
    ]);
    await until(() => failingOf(delivered(), newlyFailing).length === 1, 'the newly failing');
    expect(failingOf(delivered(), failing)).toHaveLength(1);
    expect(failingOf(delivered(), newlyFailing)[0]!.event.data).toMatchObject({ fail: 120 });
  });

  it('gives a changed destination to the same watches, whose alerts then carry its new secret', async () => {
    const ids = (await autoWatchOf(service, inbox)).watches.map((watch) => watch.watch_id).sort();
    const answer = await patchAutoWatch(service, inbox, {
      webhook_url: receiver.url('/moved'),
      webhook_format: 'standard',
      min_messages: 100,
    });
    expect(answer.webhook_secret).toMatch(/^whsec_/);
    expect(answer.webhook_secret).not.toBe(secret);
    // The run follows the PATCH at once; the listing takes two checks.
    await service.setZones(world({ [second]: { 'zen.spamhaus.org': ['127.0.0.2'] } }));
    await until(
      () => listedOf(deliveredTo(receiver, '/moved', answer.webhook_secret!), second).length > 0,
      'watch.listed at the new webhook',
    );
    await service.setZones(world());
    expect(listedOf(delivered(), second)).toHaveLength(0);
    const after = (await autoWatchOf(service, inbox)).watches.map((watch) => watch.watch_id);
    expect(after.sort()).toEqual(ids);
  });

  it('renews its watches every day', async () => {
    const [watch] = (await autoWatchOf(service, inbox)).watches;
    const expiresAt = async () =>
      Date.parse(
        ((await (await service.fetch(watch!.watch_url)).json()) as { expires_at: string })
          .expires_at,
      );
    const before = await expiresAt();
    moveTime(25 * hourMs);
    await until(async () => (await expiresAt()) > before, 'the renewal');
    // The same watches: a renewal is no new watch.
    expect((await autoWatchOf(service, inbox)).watches[0]!.watch_id).toBe(watch!.watch_id);
    // The day's run announced nothing again (read unverified: a new one would be a day ahead).
    const announcements = receiver.received
      .map((request) => JSON.parse(request.body) as { type: string; data: { source_ip?: string } })
      .filter((event) => event.type === 'reports.source_failing');
    expect(announcements.map((event) => event.data.source_ip).sort()).toEqual(
      [failing, newlyFailing].sort(),
    );
  });

  it('removes the watch of a source that stopped sending, and watches the next one in its place', async () => {
    const gone = (await autoWatchOf(service, inbox)).watches.find((watch) => watch.ip === second)!;
    // A month on, only the top and third sources send.
    moveTime(31 * 24 * hourMs);
    await uploadRows(service, inbox, dateBefore(serviceNow(), 1), [
      { ip: top, count: 400, dkim: true },
      { ip: third, count: 300, dkim: true },
    ]);
    await until(
      async () => (await watchedIps(service, inbox)).join() === [top, third].sort().join(),
      'the third source watched instead of the second',
    );
    expect((await service.fetch(gone.watch_url)).status).toBe(404);
  });

  it('removes every watch of the inbox when auto_watch is turned off', async () => {
    const { watches } = await autoWatchOf(service, inbox);
    expect(watches).toHaveLength(2);
    await patchAutoWatch(service, inbox, null);
    await until(async () => (await autoWatchOf(service, inbox)).watches.length === 0, 'no watch');
    for (const watch of watches) expect((await service.fetch(watch.watch_url)).status).toBe(404);
  });

  it('removes every watch of an inbox that is erased', async () => {
    const other = await createInbox(service, { domain }, { authorization: `Bearer ${operator}` });
    await uploadRows(service, other, dateBefore(serviceNow(), 3), [
      { ip: top, count: 1000, dkim: true, spf: true },
    ]);
    await patchAutoWatch(service, other, { webhook_url: receiver.url('/other') });
    await until(async () => (await watchedIps(service, other)).length === 1, 'its watch');
    const [watch] = (await autoWatchOf(service, other)).watches;
    const erased = await send(service, 'DELETE', `/reports/v1/${other.id}`, { key: other.key });
    expect(erased.status).toBe(204);
    await until(
      async () => (await service.fetch(watch!.watch_url)).status === 404,
      'the erased inbox’s watch gone',
    );
  });
});
