import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ReceivedWebhook, signatureOf } from '../../fixtures/webhook-receiver.js';
import { freshRedisUrl } from '../support/redis.js';
import {
  type TestClock,
  type WatchService,
  operatorToken,
  startWatchService,
  testClock,
  useWatchWorld,
} from './support.js';

/**
 * Chat formats and confirmed changes on the stores processes share (docs/watches.md, "Chat
 * formats", "Confirmed changes"), on a real SQLite file and a real redis-server: two runners, each
 * with its own connection as two processes hold them, take turns. The re-check that hears a
 * listing is one runner's and the one that confirms it the other's, and the chat message is sent
 * once; a listing heard once then gone is sent to no one, whichever runner heard it; the format,
 * language and confirmations stored by one are what the other reads.
 */

const world = useWatchWorld();

const opened: WatchService[] = [];
afterEach(async () => {
  for (const service of opened.splice(0)) await service.close();
  world.dns.list({});
  world.receiver.answer(204);
});

const sqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'watch-chat-')), 'store.db')}`;
const interval = 3600;
const minIntervalS = 300;
const zen = 'zen.spamhaus.org';

/** The signature of a delivery, computed again over the bytes sent (an ntfy body is no JSON). */
function expectSigned(request: ReceivedWebhook, secret: string): void {
  expect(request.headers['webhook-signature']).toBe(signatureOf(request, secret));
}

describe.each([
  ['sqlite', async () => sqliteUrl()],
  ['redis', freshRedisUrl],
])('one %s store, two runners', (name, storeUrl) => {
  async function pair(): Promise<{ a: WatchService; b: WatchService; clock: TestClock }> {
    const url = await storeUrl();
    const clock = testClock();
    const open = async () => {
      const service = await startWatchService(world.dns.address, {
        storeUrl: url,
        clock,
        env: {
          WATCH_PER_CALLER: '100',
          WATCH_MIN_INTERVAL_S: String(minIntervalS),
          WATCH_INTERVAL_S: String(interval),
        },
      });
      opened.push(service);
      return service;
    };
    return { a: await open(), b: await open(), clock };
  }

  /** Moves the clock to the watch's next check and lets `runner` alone run what is due. */
  async function checkOn(runner: WatchService, clock: TestClock, id: string) {
    const view = await runner.watches.view(id);
    clock.advance(Math.max(0, Date.parse(view!.next_check_at!) - clock.now().getTime()));
    await runner.runUntilIdle();
    return (await runner.watches.view(id))!;
  }

  const receivedAt = (path: string) =>
    world.receiver.received.filter((request) => request.path === path);

  it('sends a Slack message once, when the other runner’s re-check confirms the listing', async () => {
    const { a, b, clock } = await pair();
    const target = '8.8.100.51';
    const path = `/${name}/slack`;
    const created = await a.watches.create(
      {
        target,
        interval_s: interval,
        webhook_url: world.receiver.url(path),
        webhook_format: 'slack',
        lang: 'ru',
      },
      { caller: '198.51.100.20', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    const { id } = created.watch;
    // What one runner stored, the other reads.
    expect(await b.watches.view(id)).toMatchObject({
      confirmations: 2,
      lang: 'ru',
      webhook: { format: 'slack' },
    });

    world.dns.list({ [target]: { [zen]: ['127.0.0.2'] } });
    const heard = await checkOn(a, clock, id);
    expect(receivedAt(path)).toEqual([]);
    expect(Date.parse(heard.next_check_at!) - Date.parse(heard.checked_at!)).toBeLessThanOrEqual(
      minIntervalS * 1000,
    );
    const confirmed = await checkOn(b, clock, id);
    // Both runners tick again: the delivery was made once, by whichever claimed it.
    await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);

    const deliveries = receivedAt(path);
    expect(deliveries).toHaveLength(1);
    expectSigned(deliveries[0]!, created.webhook_secret!);
    const { text } = JSON.parse(deliveries[0]!.body) as { text: string };
    expect(text).toContain('новое попадание');
    expect(text).toContain(zen);
    expect(confirmed.history).toHaveLength(1);
    expect((await a.watches.view(id))!.status?.listed_on).toEqual([
      expect.objectContaining({ zone: zen }),
    ]);
  });

  it('reports to no one a listing one runner heard once and the other heard gone; one that persists goes as ntfy', async () => {
    const { a, b, clock } = await pair();
    const target = '8.8.100.52';
    const path = `/${name}/ntfy`;
    const created = await a.watches.create(
      {
        target,
        interval_s: interval,
        webhook_url: world.receiver.url(path),
        webhook_format: 'ntfy',
        // The origin the route passes (the request's): links are absolute under it.
        origin: 'https://reputation.example',
      },
      { caller: '198.51.100.21', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    const { id } = created.watch;

    world.dns.list({ [target]: { [zen]: ['127.0.0.2'] } });
    await checkOn(b, clock, id);
    world.dns.list({});
    await checkOn(a, clock, id);
    const after = await checkOn(b, clock, id);

    expect(receivedAt(path)).toEqual([]);
    expect(after.history).toEqual([]);
    expect(after.status?.listed_on).toEqual([]);
    expect(Date.parse(after.next_check_at!) - Date.parse(after.checked_at!)).toBe(interval * 1000);

    // The format is the stored one: a listing that persists reaches the receiver as ntfy.
    world.dns.list({ [target]: { [zen]: ['127.0.0.2'] } });
    await checkOn(a, clock, id);
    await checkOn(b, clock, id);
    const [delivery, ...more] = receivedAt(path);
    expect(more).toEqual([]);
    expect(delivery!.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(delivery!.headers.tags).toBe('rotating_light');
    expect(delivery!.headers.click).toMatch(
      new RegExp(`^https://reputation\\.example/.*/watch/v1/${id}/share$`),
    );
    expectSigned(delivery!, created.webhook_secret!);
  });
});
