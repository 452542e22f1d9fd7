import { afterEach, describe, expect, it } from 'vitest';
import {
  type TestClock,
  type WatchService,
  operatorToken,
  startWatchService,
  testClock,
  useWatchWorld,
  watchedIp,
} from './support.js';
import type { WatchEvent } from '../../src/watch/index.js';
import type { ReceivedWebhook } from '../../fixtures/webhook-receiver.js';

/** The clock moves hours on, past the five minutes a signature verifier allows: read the body. */
const eventOf = (request: ReceivedWebhook) => JSON.parse(request.body) as WatchEvent;

/**
 * Confirmed changes and pinned host names (docs/watches.md, "Confirmed changes", "Host names"):
 * the fixture DNS world lists the watched address for one re-check and then not, or for good,
 * while the runner re-checks it and delivers to a real receiver on 127.0.0.1; a host name whose
 * answer rotates between addresses that lists do and do not list. The clock is the test's.
 */

const world = useWatchWorld();

let service: WatchService | undefined;
let clock: TestClock;
afterEach(async () => {
  await service?.close();
  service = undefined;
  world.dns.list({});
});

const interval = 3600;
/** WATCH_MIN_INTERVAL_S of these tests: the confirming re-check must come within it. */
const minIntervalS = 300;
const zen = 'zen.spamhaus.org';
const listing = { [watchedIp]: { [zen]: ['127.0.0.2'] } };

async function start() {
  clock = testClock();
  service = await startWatchService(world.dns.address, {
    clock,
    env: { WATCH_MIN_INTERVAL_S: String(minIntervalS), WATCH_INTERVAL_S: String(interval) },
    services: { holdProbeMs: 200 },
  });
  return service;
}

async function watchOf(path: string, extra: { target?: string; confirmations?: number } = {}) {
  const created = await service!.watches.create(
    {
      target: extra.target ?? watchedIp,
      interval_s: interval,
      webhook_url: world.receiver.url(path),
      ...(extra.confirmations === undefined ? {} : { confirmations: extra.confirmations }),
    },
    { caller: '198.51.100.1', credential: operatorToken },
  );
  if (!created.ok) throw new Error(created.reason);
  return { id: created.watch.id, secret: created.webhook_secret!, view: created.watch };
}

const receivedAt = (path: string) =>
  world.receiver.received.filter((request) => request.path === path);

/** Moves the clock to the watch's next check and runs every check and delivery due then. */
async function nextCheck(id: string) {
  const view = await service!.watches.view(id);
  clock.advance(Math.max(0, Date.parse(view!.next_check_at!) - clock.now().getTime()));
  await service!.runUntilIdle();
  return (await service!.watches.view(id))!;
}

describe('confirmations', () => {
  it('reports to no one a listing heard once that flips back (confirmations 2, the default)', async () => {
    await start();
    const { id, view } = await watchOf('/flap');
    expect(view.confirmations).toBe(2);

    world.dns.list(listing);
    const heard = await nextCheck(id);
    // Not yet confirmed: the badge and the view keep the confirmed status.
    expect(heard.status?.listed_on).toEqual([]);
    world.dns.list({});
    await nextCheck(id);
    await nextCheck(id);

    expect(receivedAt('/flap')).toEqual([]);
    const after = (await service!.watches.view(id))!;
    expect(after.history).toEqual([]);
    expect(after.status?.listed_on).toEqual([]);
  });

  it('reports a listing that persists once, after the second re-check, which came within WATCH_MIN_INTERVAL_S', async () => {
    await start();
    const { id } = await watchOf('/persists');

    world.dns.list(listing);
    const first = await nextCheck(id);
    const soon = Date.parse(first.next_check_at!) - Date.parse(first.checked_at!);
    expect(soon).toBeGreaterThan(0);
    expect(soon).toBeLessThanOrEqual(minIntervalS * 1000);
    expect(receivedAt('/persists')).toEqual([]);

    const second = await nextCheck(id);
    expect(Date.parse(second.checked_at!) - Date.parse(first.checked_at!)).toBeLessThanOrEqual(
      minIntervalS * 1000,
    );
    const events = receivedAt('/persists').map((request) => eventOf(request));
    expect(events.map((event) => event.type)).toEqual(['watch.listed']);
    expect(events[0]!.data.added).toEqual([expect.objectContaining({ zone: zen })]);
    expect(second.history).toHaveLength(1);
    expect(second.status?.listed_on).toEqual([expect.objectContaining({ zone: zen })]);
    // Confirmed: back to the watch's cadence, an interval after the regular check.
    expect(Date.parse(second.next_check_at!) - Date.parse(first.checked_at!)).toBe(interval * 1000);

    // The delisting is confirmed the same way: one event after two re-checks agree.
    world.dns.list({});
    await nextCheck(id);
    expect(receivedAt('/persists')).toHaveLength(1);
    await nextCheck(id);
    const types = receivedAt('/persists').map((request) => eventOf(request).type);
    expect(types).toEqual(['watch.listed', 'watch.delisted']);
  });

  it('reports at the first re-check that hears a change with confirmations 1, as before', async () => {
    await start();
    const { id } = await watchOf('/at-once', { confirmations: 1 });
    world.dns.list(listing);
    const checked = await nextCheck(id);
    expect(checked.confirmations).toBe(1);
    const types = receivedAt('/at-once').map((request) => eventOf(request).type);
    expect(types).toEqual(['watch.listed']);
    expect(Date.parse(checked.next_check_at!) - Date.parse(checked.checked_at!)).toBe(
      interval * 1000,
    );
  });

  it('refuses confirmations outside 1 to 5, and a PATCH changes them', async () => {
    await start();
    for (const confirmations of [0, 6, 1.5, -1]) {
      const created = await service!.watches.create(
        {
          target: watchedIp,
          confirmations,
        },
        { caller: '198.51.100.1' },
      );
      expect(created).toMatchObject({ ok: false, error: 'invalid_request' });
    }
    const { id } = await watchOf('/patched');
    expect(await service!.watches.update(id, { confirmations: 9 })).toMatchObject({
      ok: false,
      error: 'invalid_request',
    });
    const updated = await service!.watches.update(id, { confirmations: 3 });
    expect(updated).toMatchObject({ ok: true, watch: { confirmations: 3 } });
  });
});

describe('a host name whose answer rotates', () => {
  const pool = 'pool.rotating-watch.net';
  // Sorted as the IP tool sorts them, the first of any two picked is listed two times in three.
  const members = ['8.8.100.7', '8.8.100.9', '8.8.100.11', '8.8.100.13'];
  const poolZone = { origin: pool, records: { [pool]: { A: members, pickA: 2 } } };
  const listings = {
    '8.8.100.7': { [zen]: ['127.0.0.2'] },
    '8.8.100.11': { [zen]: ['127.0.0.2'] },
  };

  it('re-checks the address it had at creation: no event however the name rotates or moves', async () => {
    await start();
    world.dns.list(listings, [poolZone]);
    // Confirmations 1, so any change a re-check heard would be delivered.
    const { id, view } = await watchOf('/pool', { target: pool, confirmations: 1 });
    expect(view.addresses).toHaveLength(1);
    expect(members).toContain(view.addresses![0]);
    for (let check = 0; check < 10; check++) await nextCheck(id);

    expect(receivedAt('/pool')).toEqual([]);
    const after = (await service!.watches.view(id))!;
    expect(after.history).toEqual([]);
    expect(after.addresses).toEqual(view.addresses);
    expect(after.target).toBe(pool);
    // A rotation that left the pinned address out of the last answer is a note, never more.
    expect(after.resolves_to ?? []).not.toContain(view.addresses![0]);

    // The name moves away from the pinned address: a note in the view, not an event.
    world.dns.list(listings, [{ origin: pool, records: { [pool]: { A: ['8.8.100.21'] } } }]);
    const moved = await nextCheck(id);
    expect(moved.resolves_to).toEqual(['8.8.100.21']);
    expect(moved.addresses).toEqual(view.addresses);
    expect(moved.history).toEqual([]);
    expect(receivedAt('/pool')).toEqual([]);
  });
});
