import { afterEach, describe, expect, it } from 'vitest';
import { startWatchTimer } from '../../src/node/watch-timer.js';
import type { CheckClaims } from '../../src/watch/index.js';
import {
  type TestClock,
  type WatchService,
  startWatchService,
  testClock,
  useWatchWorld,
  verified,
  watchedIp,
  operatorToken,
} from './support.js';

/** The view as the manage key's holder reads it: with the last delivery's outcome. */
const ownerView = { withDelivery: true };
/**
 * The runner over a fixture DNS world that lists and delists while it runs, delivering to a real
 * receiver on 127.0.0.1 (WEBHOOK_ALLOW_NETWORKS=127.0.0.0/8): one event per change, each signed
 * as Standard Webhooks verifies it; silence and a lying resolver change nothing; failed
 * deliveries are retried with the same webhook-id, 410 removes the webhook, five failed events
 * pause it. The clock is the test's (webhook timestamps stay within the verifier's five minutes),
 * except in the one test that waits the real five seconds of the first retry.
 */

const world = useWatchWorld();

let service: WatchService | undefined;
let clock: TestClock;
afterEach(async () => {
  await service?.close();
  service = undefined;
  world.dns.list({});
  world.dns.lying.setMode('honest');
  world.dns.lying.silence([]);
  world.receiver.answer(204);
});

const interval = 60;
const zen = 'zen.spamhaus.org';
const spamcop = 'bl.spamcop.net';

async function start(
  options: {
    retryDelaysMs?: readonly number[];
    env?: Record<string, string>;
    checkLeaseMs?: number;
  } = {},
) {
  clock = testClock();
  service = await startWatchService(world.dns.address, {
    clock,
    ...options,
    services: { holdProbeMs: 200 },
  });
  return service;
}

/** A watch of `watchedIp` whose webhook is this test's own path of the world.receiver. */
async function watchWithWebhook(path: string) {
  const created = await service!.watches.create(
    {
      target: watchedIp,
      interval_s: interval,
      webhook_url: world.receiver.url(path),
    },
    { caller: '198.51.100.1', credential: operatorToken },
  );
  if (!created.ok) throw new Error(created.reason);
  return { id: created.watch.id, secret: created.webhook_secret! };
}

const receivedAt = (path: string) =>
  world.receiver.received.filter((request) => request.path === path);

/** One interval passes: the watch is due, is checked, and its deliveries are made. */
async function nextInterval() {
  clock.advance(interval * 1000);
  await service!.runUntilIdle();
}

describe('a watched address listed, then delisted', () => {
  it('sends exactly one watch.listed, then one watch.delisted, each signed', async () => {
    await start();
    const { id, secret } = await watchWithWebhook('/listed-delisted');
    await service!.runUntilIdle();
    expect(receivedAt('/listed-delisted')).toEqual([]);

    world.dns.list({ [watchedIp]: { [zen]: ['127.0.0.2'] } });
    await nextInterval();
    await nextInterval();
    world.dns.list({});
    await nextInterval();
    await nextInterval();

    const requests = receivedAt('/listed-delisted');
    const events = requests.map((request) => verified(secret, request));
    expect(events.map((event) => event.type)).toEqual(['watch.listed', 'watch.delisted']);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(2);
    const [listed, delisted] = events;
    expect(listed!.data).toMatchObject({
      watch: { id, target: watchedIp, kind: 'ip', page_url: expect.stringContaining(id) },
      added: [{ zone: zen, name: 'Spamhaus ZEN', code: '127.0.0.2', meaning: expect.any(String) }],
      removed: [],
      listed_on: [{ zone: zen, name: 'Spamhaus ZEN' }],
      verdict: 'poor',
    });
    expect(listed!.data.added[0]!.delist_url).toMatch(/^https:/);
    expect(delisted!.data).toMatchObject({
      added: [],
      removed: [{ zone: zen, code: '127.0.0.2' }],
      listed_on: [],
    });

    const view = await service!.watches.view(id, ownerView);
    expect(view?.history.map((entry) => entry.added.length > 0)).toEqual([false, true]);
    expect(view?.webhook).toMatchObject({
      origin: `http://127.0.0.1:${world.receiver.port}`,
      last_delivery: { outcome: 'delivered', status: 204 },
      failed_events: 0,
      paused: false,
    });
    expect(JSON.stringify(view)).not.toContain('/listed-delisted');
    expect(JSON.stringify(view)).not.toContain(secret);
  });

  it('hears the lists afresh at each interval, past the DNS answer cache', async () => {
    await start();
    await watchWithWebhook('/fresh');
    const asked = () =>
      world.dns.dns.queries.filter(
        (query) => query.name === `7.100.8.8.${zen}` && query.type === 'A',
      ).length;
    const before = asked();
    await nextInterval();
    await nextInterval();
    expect(asked()).toBe(before + 2);
  });
});

describe('the claims of a tick that died', () => {
  it('are checked at once by a tick handed them within their lease, and left alone after it', async () => {
    await start({ checkLeaseMs: 30_000 });
    const { id } = await watchWithWebhook('/orphaned');
    await service!.runUntilIdle();
    const { runner } = service!.watches;
    const asked = () =>
      world.dns.dns.queries.filter(
        (query) => query.name === `7.100.8.8.${zen}` && query.type === 'A',
      ).length;
    clock.advance(interval * 1000);
    let claims: CheckClaims | undefined;
    await runner.tick({ onClaimed: async (claimed) => void (claims = claimed) });
    expect(claims).toEqual({ at: clock.now().getTime(), watchIds: [id] });

    // As the Workers watch clock does after a restart: what the dead tick held is due now.
    clock.advance(10_000);
    const before = asked();
    await runner.tick();
    expect(asked()).toBe(before);
    await runner.tick({ orphaned: claims! });
    expect(asked()).toBe(before + 1);

    // 35 s after the claim its lease is over: another runner may hold the watch by then.
    clock.advance(25_000);
    await runner.tick({ orphaned: claims! });
    expect(asked()).toBe(before + 1);
  });
});

describe('a watched sending domain', () => {
  const domain = 'watched-sender.com';
  const sender = '8.8.100.20';
  const senderZone = {
    origin: domain,
    records: {
      [domain]: { TXT: ['v=spf1 ip4:8.8.100.20 ip4:8.8.100.21 -all'], A: [sender] },
      [`_dmarc.${domain}`]: { TXT: ['v=DMARC1; p=reject'] },
    },
  };

  it('sends watch.listed naming the sender address a list now lists, and the domain lists too', async () => {
    world.dns.list({}, [senderZone]);
    await start();
    const created = await service!.watches.create(
      {
        target: domain,
        kind: 'domain',
        interval_s: interval,
        webhook_url: world.receiver.url('/domain'),
      },
      { caller: '198.51.100.3', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    expect(created.watch.status?.addresses?.map((address) => address.ip)).toEqual([
      sender,
      '8.8.100.21',
    ]);
    world.dns.list(
      { [sender]: { [spamcop]: ['127.0.0.2'] }, [domain]: { 'dbl.spamhaus.org': ['127.0.1.2'] } },
      [senderZone],
    );
    // The second re-check confirms the listings (confirmations 2, the default).
    await nextInterval();
    await nextInterval();
    const events = receivedAt('/domain').map((request) =>
      verified(created.webhook_secret!, request),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'watch.listed',
      data: {
        watch: { target: domain, kind: 'domain' },
        added: [
          { zone: 'dbl.spamhaus.org', code: '127.0.1.2' },
          { zone: spamcop, code: '127.0.0.2', address: sender },
        ],
        listed_on: expect.arrayContaining([
          { zone: spamcop, name: 'SpamCop Blocking List', address: sender },
        ]),
      },
    });
  });
});

describe('silence', () => {
  it('never delists: a list that stops answering keeps its listing until it answers again', async () => {
    world.dns.list({ [watchedIp]: { [spamcop]: ['127.0.0.2'] } });
    // A silent list holds each check until the deadline.
    await start({ env: { CHECK_DEADLINE_MS: '1000', DNS_TIMEOUT_MS: '1000' } });
    const { secret } = await watchWithWebhook('/silent');
    world.dns.lying.silence([spamcop]);
    world.dns.list({});
    await nextInterval();
    await nextInterval();
    expect(receivedAt('/silent')).toEqual([]);

    world.dns.lying.silence([]);
    // The list answers again once its hold is lifted (probed every 200 ms here).
    await expect
      .poll(async () => {
        await nextInterval();
        return receivedAt('/silent').length;
      })
      .toBe(1);
    expect(verified(secret, receivedAt('/silent')[0]!)).toMatchObject({
      type: 'watch.delisted',
      data: { removed: [{ zone: spamcop }] },
    });
  });

  it('records nothing from a resolver caught lying, and sends no delisting', async () => {
    world.dns.list({ [watchedIp]: { [zen]: ['127.0.0.2'] } });
    await start();
    const { id } = await watchWithWebhook('/lying');
    const checkedAt = (await service!.watches.view(id, ownerView))?.checked_at;
    world.dns.lying.setMode('nxdomain');
    await nextInterval();
    expect(receivedAt('/lying')).toEqual([]);
    expect((await service!.watches.view(id, ownerView))?.checked_at).toBe(checkedAt);
  });
});

describe('failed deliveries', () => {
  it('retry after 5 s with the same webhook-id, not before', async () => {
    await start();
    const { id, secret } = await watchWithWebhook('/retry');
    let answered = 0;
    world.receiver.answer(() => (answered++ === 0 ? 500 : 204));
    expect(await service!.watches.sendTest(id)).toEqual({ ok: true });
    await service!.runUntilIdle();
    expect(receivedAt('/retry')).toHaveLength(1);
    expect((await service!.watches.view(id, ownerView))?.webhook?.last_delivery).toMatchObject({
      outcome: 'failed',
      status: 500,
    });

    clock.advance(4999);
    await service!.runUntilIdle();
    expect(receivedAt('/retry')).toHaveLength(1);
    clock.advance(1);
    await service!.runUntilIdle();
    const [first, second] = receivedAt('/retry');
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(verified(secret, second!).type).toBe('watch.test');
    expect((await service!.watches.view(id, ownerView))?.webhook).toMatchObject({
      last_delivery: { outcome: 'delivered' },
      failed_events: 0,
    });
  });

  it('retry after a real 5 s under the real runner and clock', { timeout: 30_000 }, async () => {
    const real = await startWatchService(world.dns.address, { services: { holdProbeMs: 200 } });
    service = real;
    const timer = startWatchTimer(real.watches.runner, {
      clock: () => new Date(),
      log: real.services.log,
    });
    try {
      const created = await real.watches.create(
        {
          target: watchedIp,
          interval_s: 3600,
          webhook_url: world.receiver.url('/real-retry'),
        },
        { caller: '198.51.100.2', credential: operatorToken },
      );
      if (!created.ok) throw new Error(created.reason);
      const arrivals: number[] = [];
      world.receiver.answer(() => {
        arrivals.push(performance.now());
        return arrivals.length === 1 ? 503 : 204;
      });
      await real.watches.sendTest(created.watch.id);
      await expect.poll(() => receivedAt('/real-retry').length, { timeout: 15_000 }).toBe(2);
      const [first, second] = receivedAt('/real-retry');
      expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
      expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(5000);
    } finally {
      await timer.stop();
    }
  });

  it('count a redirect as a failed attempt, without following it', async () => {
    await start();
    const { id } = await watchWithWebhook('/redirect');
    world.receiver.answer({ status: 301, location: world.receiver.url('/elsewhere') });
    await service!.watches.sendTest(id);
    await service!.runUntilIdle();
    expect(world.receiver.received.filter((request) => request.path === '/elsewhere')).toEqual([]);
    expect(receivedAt('/redirect')).toHaveLength(1);
    expect((await service!.watches.view(id, ownerView))?.webhook?.last_delivery).toMatchObject({
      outcome: 'failed',
      status: 301,
    });
  });

  it('refuse a host name that resolves to a private address, and reach one that resolves to an allowed network by its checked address', async () => {
    const hooks = 'hooks.watch-world.receiver.com';
    world.dns.list({}, [
      {
        origin: hooks,
        records: {
          [`inside.${hooks}`]: { A: ['10.0.0.5'] },
          [`local.${hooks}`]: { A: ['127.0.0.1'] },
        },
      },
    ]);
    await start();
    const create = async (host: string) => {
      const created = await service!.watches.create(
        {
          target: watchedIp,
          webhook_url: `http://${host}:${world.receiver.port}/by-name`,
        },
        { caller: '198.51.100.4', credential: operatorToken },
      );
      if (!created.ok) throw new Error(created.reason);
      await service!.watches.sendTest(created.watch.id);
      await service!.runUntilIdle();
      return (await service!.watches.view(created.watch.id, ownerView))?.webhook?.last_delivery;
    };
    expect(await create(`inside.${hooks}`)).toMatchObject({ outcome: 'refused' });
    expect(receivedAt('/by-name')).toEqual([]);
    expect(await create(`local.${hooks}`)).toMatchObject({ outcome: 'delivered' });
    expect(receivedAt('/by-name').map((request) => request.headers.host)).toEqual([
      `local.${hooks}:${world.receiver.port}`,
    ]);
  });

  it('refuse a name that resolves into WEBHOOK_ALLOW_NETWORKS for a watch not created with OPERATOR_TOKEN', async () => {
    const hooks = 'hooks.watch-world.receiver.com';
    world.dns.list({}, [{ origin: hooks, records: { [`local.${hooks}`]: { A: ['127.0.0.1'] } } }]);
    await start();
    const created = await service!.watches.create(
      {
        target: watchedIp,
        webhook_url: `http://local.${hooks}:${world.receiver.port}/anonymous`,
      },
      { caller: '198.51.100.5' },
    );
    if (!created.ok) throw new Error(created.reason);
    await service!.watches.sendTest(created.watch.id);
    await service!.runUntilIdle();
    expect(
      (await service!.watches.view(created.watch.id, ownerView))?.webhook?.last_delivery,
    ).toMatchObject({ outcome: 'refused' });
    expect(receivedAt('/anonymous')).toEqual([]);
  });

  it('410 Gone removes the webhook and sends nothing more', async () => {
    await start();
    const { id } = await watchWithWebhook('/gone');
    world.receiver.answer(410);
    await service!.watches.sendTest(id);
    await service!.runUntilIdle();
    const view = await service!.watches.view(id, ownerView);
    expect(view?.webhook).toBeNull();
    world.dns.list({ [watchedIp]: { [zen]: ['127.0.0.2'] } });
    await nextInterval();
    clock.advance(5000);
    await service!.runUntilIdle();
    expect(receivedAt('/gone')).toHaveLength(1);
    expect((await service!.watches.view(id, ownerView))?.history).toHaveLength(1);
    expect(await service!.watches.sendTest(id)).toMatchObject({
      ok: false,
      error: 'invalid_request',
    });
  });

  it('pause deliveries after five events failed in a row, each counted from its first failed attempt', async () => {
    await start({ retryDelaysMs: [1000, 1000, 1000] });
    const { id } = await watchWithWebhook('/pause');
    world.receiver.answer(500);
    for (let event = 1; event <= 5; event++) {
      expect(await service!.watches.sendTest(id)).toEqual({ ok: true });
      await service!.runUntilIdle();
      // Counted at once, not 3 s on when its last retry has failed too.
      expect((await service!.watches.view(id, ownerView))?.webhook?.failed_events).toBe(event);
      if (event === 5) break;
      for (let retry = 0; retry < 3; retry++) {
        clock.advance(1000);
        await service!.runUntilIdle();
      }
    }
    // The fifth event's first attempt paused the webhook: its retries are dropped unsent.
    expect(receivedAt('/pause')).toHaveLength(17);
    expect((await service!.watches.view(id, ownerView))?.webhook).toMatchObject({ paused: true });
    clock.advance(1000);
    await service!.runUntilIdle();
    expect(receivedAt('/pause')).toHaveLength(17);
    // A change while paused is recorded, not sent.
    world.dns.list({ [watchedIp]: { [zen]: ['127.0.0.2'] } });
    await nextInterval();
    await nextInterval();
    expect(receivedAt('/pause')).toHaveLength(17);
    expect((await service!.watches.view(id, ownerView))?.history).toHaveLength(1);

    // The same URL sent again (a renewal) keeps the failures and the pause.
    world.receiver.answer(204);
    const patched = await service!.watches.update(id, {
      webhook_url: world.receiver.url('/pause'),
    });
    expect(patched).toMatchObject({
      ok: true,
      watch: { webhook: { paused: true, failed_events: 5 } },
    });
    expect(patched.ok && patched.webhook_secret).toBe(undefined);
    // A test is sent while paused, and its 2xx resumes the deliveries.
    expect(await service!.watches.sendTest(id)).toEqual({ ok: true });
    await service!.runUntilIdle();
    expect(receivedAt('/pause')).toHaveLength(18);
    expect((await service!.watches.view(id, ownerView))?.webhook).toMatchObject({
      paused: false,
      failed_events: 0,
    });
  });

  it('pause a webhook whose tests keep failing, and keep it paused while they fail', async () => {
    await start({ retryDelaysMs: [] });
    const { id } = await watchWithWebhook('/failing-tests');
    world.receiver.answer(500);
    for (let test = 1; test <= 7; test++) {
      expect(await service!.watches.sendTest(id)).toEqual({ ok: true });
      await service!.runUntilIdle();
    }
    expect(receivedAt('/failing-tests')).toHaveLength(7);
    expect((await service!.watches.view(id, ownerView))?.webhook).toMatchObject({
      paused: true,
      failed_events: 7,
    });
  });

  it('take one test at a time: a second while the first waits answers test_pending', async () => {
    await start({ retryDelaysMs: [] });
    const { id } = await watchWithWebhook('/together');
    world.receiver.answer(500);
    const outcomes = await Promise.all([1, 2, 3].map(() => service!.watches.sendTest(id)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([
      expect.objectContaining({ error: 'test_pending', retryAfterS: 5 }),
      expect.objectContaining({ error: 'test_pending', retryAfterS: 5 }),
    ]);
    await service!.runUntilIdle();
    expect(receivedAt('/together')).toHaveLength(1);
    // Its attempt has ended: the next test is taken.
    expect(await service!.watches.sendTest(id)).toEqual({ ok: true });
  });

  it('refuse a test of a watch its owner paused', async () => {
    await start();
    const { id } = await watchWithWebhook('/owner-paused');
    await service!.watches.update(id, { paused: true });
    expect(await service!.watches.sendTest(id)).toMatchObject({
      ok: false,
      error: 'invalid_request',
    });
    await service!.runUntilIdle();
    expect(receivedAt('/owner-paused')).toEqual([]);
  });
});
