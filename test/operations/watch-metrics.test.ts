import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';
import {
  type TestClock,
  type WatchService,
  operatorToken,
  startWatchService,
  testClock,
  useWatchWorld,
  watchedIp,
} from '../watch/support.js';

/**
 * The watches' metrics (docs/operations.md): the live watches, how late each due check started,
 * and each webhook delivery attempt by outcome, as the runner reports them, over the fixture DNS
 * world and a real receiver on 127.0.0.1 (test/watch/support.ts).
 */

const world = useWatchWorld();
let service: WatchService;
let clock: TestClock;
let watchId: string;

async function sample(name: string, labels: Record<string, string> = {}) {
  return sampleValue(parsePrometheusText(await service.metricsText()), name, labels);
}

beforeAll(async () => {
  clock = testClock();
  service = await startWatchService(world.dns.address, {
    clock,
    services: { holdProbeMs: 200 },
  });
  const created = await service.watches.create(
    {
      target: watchedIp,
      interval_s: 60,
      webhook_url: world.receiver.url('/watch-metrics'),
    },
    { caller: '198.51.100.1', credential: operatorToken },
  );
  if (!created.ok) throw new Error(created.reason);
  watchId = created.watch.id;
}, 60_000);
afterAll(() => service.close());

describe('the watch metrics', () => {
  it('count the live watches', async () => {
    expect(await sample('reputation_watches_live')).toBe(1);
  });

  it("observe each due check's lag and count each delivery attempt by outcome", async () => {
    // Created with its first check done: the next is due one interval on.
    clock.advance(60_000);
    await service.runUntilIdle();
    expect(await sample('reputation_watch_due_lag_seconds_count')).toBe(1);
    world.receiver.answer(500);
    expect(await service.watches.sendTest(watchId)).toEqual({ ok: true });
    await service.runUntilIdle();
    expect(await sample('reputation_watch_deliveries_total', { outcome: 'failed' })).toBe(1);
    world.receiver.answer(204);
  });

  it('count a deleted watch no more', async () => {
    expect(await service.watches.remove(watchId)).toEqual({ ok: true });
    expect(await sample('reputation_watches_live')).toBe(0);
  });
});
