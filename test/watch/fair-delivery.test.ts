import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWatchTimer, type WatchTimer } from '../../src/node/watch-timer.js';
import {
  enqueueDeliveries,
  type PendingDelivery,
  watchRecords,
} from '../../src/watch/model/index.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';
import {
  type TestClock,
  type WatchService,
  startWatchService,
  testClock,
  useWatchWorld,
  watchedIp,
  operatorToken,
} from './support.js';

/**
 * Fair delivery (docs/watches.md, "Fair delivery"): one watch whose receiver never answers holds
 * one delivery slot, not all of them, so another watch's event arrives within one timeout; a
 * watch past WATCH_PENDING_DELIVERIES loses its oldest deliveries, counted; the metrics show the
 * queue's depth and the age of its oldest delivery. Real receivers on 127.0.0.1, the real Node
 * timer and sender, the SQLite store.
 */

const world = useWatchWorld();

let service: WatchService | undefined;
let timer: WatchTimer | undefined;
afterEach(async () => {
  await timer?.stop();
  timer = undefined;
  await service?.close();
  service = undefined;
  world.receiver.answer(204);
});

const sqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'fair-delivery-')), 'store.db')}`;

const receivedAt = (path: string) =>
  world.receiver.received.filter((request) => request.path === path);

async function watchWithWebhook(path: string, subject: string) {
  const created = await service!.watches.create(
    { target: watchedIp, interval_s: 3600, webhook_url: world.receiver.url(path) },
    { caller: subject, credential: operatorToken },
  );
  if (!created.ok) throw new Error(created.reason);
  return created.watch.id;
}

async function sample(name: string, labels: Record<string, string> = {}) {
  return sampleValue(parsePrometheusText(await service!.metricsText()), name, labels);
}

describe('a receiver that never answers', () => {
  it(
    "holds one slot of its watch's backlog of 160: another watch's event arrives within one timeout",
    { timeout: 30_000 },
    async () => {
      const timeoutMs = 1000;
      service = await startWatchService(world.dns.address, {
        storeUrl: sqliteUrl(),
        env: { WEBHOOK_TIMEOUT_MS: String(timeoutMs), WATCH_PENDING_DELIVERIES: '500' },
        services: { holdProbeMs: 200 },
      });
      world.receiver.answer((request) => (request.path === '/stalls' ? 'hang' : 204));
      const stalled = await watchWithWebhook('/stalls', '198.51.100.1');
      const prompt = await watchWithWebhook('/prompt', '198.51.100.2');

      // The stalled watch's backlog: 160 events due now, as 160 tests or changes would leave it.
      const { store } = service.services;
      const now = Date.now();
      const backlog: PendingDelivery[] = Array.from({ length: 160 }, (_, index) => ({
        id: `evt_backlog${index}`,
        watch_id: stalled,
        body: '{}',
        attempts: 0,
        queued_at: now,
      }));
      await enqueueDeliveries(store, watchRecords(store, Date.now), backlog, now, {
        pendingPerWatch: 500,
      });
      timer = startWatchTimer(service.watches.runner, {
        clock: () => new Date(),
        log: service.services.log,
      });
      await expect.poll(() => receivedAt('/stalls').length, { timeout: 5000 }).toBeGreaterThan(0);

      const asked = performance.now();
      expect(await service.watches.sendTest(prompt)).toEqual({ ok: true });
      await expect.poll(() => receivedAt('/prompt').length, { timeout: 10_000 }).toBe(1);
      expect(performance.now() - asked).toBeLessThan(timeoutMs);
      // One attempt of the stalled watch at a time, each ending with its timeout.
      expect(receivedAt('/stalls').length).toBeLessThanOrEqual(2);
    },
  );
});

describe('WATCH_PENDING_DELIVERIES', () => {
  let clock: TestClock;

  it('drops the oldest pending deliveries of a watch past it, counted, and the gauges show the rest', async () => {
    clock = testClock();
    service = await startWatchService(world.dns.address, {
      storeUrl: sqliteUrl(),
      clock,
      env: { WATCH_PENDING_DELIVERIES: '2' },
      retryDelaysMs: [60_000],
      services: { holdProbeMs: 200 },
    });
    const id = await watchWithWebhook('/capped', '198.51.100.3');
    expect(await sample('reputation_watch_deliveries_pending')).toBe(0);
    world.receiver.answer(500);
    // Four tests, each failing once and waiting a minute for its retry.
    for (let test = 0; test < 4; test++) {
      expect(await service.watches.sendTest(id)).toEqual({ ok: true });
      await service.runUntilIdle();
      clock.advance(1000);
    }
    const ids = receivedAt('/capped').map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(4);
    expect(await sample('reputation_watch_deliveries_pending')).toBe(2);
    expect(await sample('reputation_watch_deliveries_dropped_total', { reason: 'cap' })).toBe(2);
    // The third test, queued 2 s before the clock's now, is the oldest left.
    expect(await sample('reputation_watch_oldest_delivery_age_seconds')).toBe(2);

    world.receiver.answer(204);
    clock.advance(60_000);
    await service.runUntilIdle();
    const retried = receivedAt('/capped')
      .slice(4)
      .map((request) => request.headers['webhook-id']);
    expect(retried.sort()).toEqual(ids.slice(2).sort());
    expect(await sample('reputation_watch_deliveries_pending')).toBe(0);
    expect(await sample('reputation_watch_oldest_delivery_age_seconds')).toBe(0);
  });
});
