import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../fixtures/free-port.js';
import { freshRedisUrl } from '../support/redis.js';
import {
  type WatchService,
  startWatchService,
  testClock,
  useWatchWorld,
  verified,
  operatorToken,
} from './support.js';

/**
 * What the store shares between runners, on a real SQLite file and a real redis-server: two
 * runners (each with its own store connection, as two processes hold them) check each due watch
 * once per interval and deliver each event once; a runner that stops and a new one on the same
 * store keep the watches and their pending deliveries.
 */

const world = useWatchWorld();

const opened: WatchService[] = [];
afterEach(async () => {
  for (const service of opened.splice(0)) await service.close();
  world.dns.list({});
  world.receiver.answer(204);
});

const sqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'watch-store-')), 'store.db')}`;
const interval = 60;
const zen = 'zen.spamhaus.org';
const targets = Array.from({ length: 6 }, (_, i) => `8.8.100.${30 + i}`);
const reversed = (ip: string) => ip.split('.').reverse().join('.');

describe.each([
  ['sqlite', async () => sqliteUrl()],
  ['redis', freshRedisUrl],
])('one %s store', (name, storeUrl) => {
  async function open(url: string, clock: ReturnType<typeof testClock>) {
    const service = await startWatchService(world.dns.address, {
      storeUrl: url,
      clock,
      env: { WATCH_PER_CALLER: '100' },
    });
    opened.push(service);
    return service;
  }

  it('under two runners: each watch checked once per interval, each event delivered once', async () => {
    const url = await storeUrl();
    const clock = testClock();
    const [a, b] = [await open(url, clock), await open(url, clock)];
    const secrets = new Map<string, string>();
    for (const target of targets) {
      const created = await a.watches.create(
        {
          target,
          interval_s: interval,
          webhook_url: world.receiver.url(`/${name}/${target}`),
          // Reported at the re-check that hears it: one check per interval is what is counted.
          confirmations: 1,
        },
        { caller: '198.51.100.9', credential: operatorToken },
      );
      if (!created.ok) throw new Error(created.reason);
      secrets.set(target, created.webhook_secret!);
    }
    const asked = (target: string) =>
      world.dns.dns.queries.filter(
        (query) => query.name === `${reversed(target)}.${zen}` && query.type === 'A',
      ).length;
    const before = targets.map(asked);

    world.dns.list(Object.fromEntries(targets.map((target) => [target, { [zen]: ['127.0.0.2'] }])));
    clock.advance(interval * 1000);
    await Promise.all([a.runUntilIdle(), b.runUntilIdle(), a.runUntilIdle(), b.runUntilIdle()]);

    expect(targets.map((target, i) => asked(target) - before[i]!)).toEqual(targets.map(() => 1));
    for (const target of targets) {
      const requests = world.receiver.received.filter(
        (request) => request.path === `/${name}/${target}`,
      );
      expect(requests.map((request) => verified(secrets.get(target)!, request).type)).toEqual([
        'watch.listed',
      ]);
    }
  });

  it('under a runner that cannot check, beside one that can: the watch is checked by the one that can', async () => {
    const url = await storeUrl();
    const clock = testClock();
    const able = await open(url, clock);
    // Its DNS servers behind a closed port: its lists never prove to answer, it is not configured
    // (as the clock of a configuration left behind by a restart with another DoH endpoint).
    const unable = await startWatchService(`127.0.0.1:${await freePort()}`, {
      storeUrl: url,
      clock,
    });
    opened.push(unable);
    const path = `/${name}/unable`;
    const created = await able.watches.create(
      {
        target: targets[1]!,
        interval_s: interval,
        webhook_url: world.receiver.url(path),
        confirmations: 1,
      },
      { caller: '198.51.100.11', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    expect(unable.services.verdicts.readiness().configured).toBe(false);

    world.dns.list({ [targets[1]!]: { [zen]: ['127.0.0.2'] } });
    clock.advance(interval * 1000);
    // The one that cannot check ticks first, as a clock on time for the due watch does.
    await unable.runUntilIdle();
    await able.runUntilIdle();

    const requests = world.receiver.received.filter((request) => request.path === path);
    expect(requests.map((request) => verified(created.webhook_secret!, request).type)).toEqual([
      'watch.listed',
    ]);
  });

  it('keeps a watch and its pending delivery across a restart, delivered with the same webhook-id', async () => {
    const url = await storeUrl();
    const clock = testClock();
    const first = await open(url, clock);
    const path = `/${name}/restart`;
    const created = await first.watches.create(
      {
        target: targets[0]!,
        interval_s: interval,
        webhook_url: world.receiver.url(path),
        confirmations: 1,
      },
      { caller: '198.51.100.10', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    world.receiver.answer(500);
    world.dns.list({ [targets[0]!]: { [zen]: ['127.0.0.2'] } });
    clock.advance(interval * 1000);
    await first.runUntilIdle();
    const failed = world.receiver.received.filter((request) => request.path === path);
    expect(failed).toHaveLength(1);
    await first.close();
    opened.splice(opened.indexOf(first), 1);

    const second = await open(url, clock);
    expect(await second.watches.view(created.watch.id, { withDelivery: true })).toMatchObject({
      target: targets[0],
      history: [{ added: [{ zone: zen }] }],
      webhook: { last_delivery: { outcome: 'failed', status: 500 } },
    });
    world.receiver.answer(204);
    clock.advance(5000);
    await second.runUntilIdle();
    const requests = world.receiver.received.filter((request) => request.path === path);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
    expect(verified(created.webhook_secret!, requests[1]!).type).toBe('watch.listed');
    expect(await second.watches.checkManageKey(created.watch.id, created.manage_key)).toBe('ok');
  });
});
