import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quotaSubject } from '../../src/http/caller.js';
import type { WatchInput, Watches } from '../../src/watch/index.js';
import {
  type TestClock,
  type WatchDns,
  type WatchService,
  operatorToken,
  otherIp,
  startWatchDns,
  startWatchService,
  testClock,
  watchedIp,
} from './support.js';

/**
 * The face the routes call (src/watch/watches.ts) over the real services and a fixture DNS world:
 * creation with its limits and refusals, the public view, PATCH, DELETE, the manage key, and the
 * end of a watch not renewed.
 */

let dns: WatchDns;
beforeAll(async () => {
  dns = await startWatchDns({ [otherIp]: { 'bl.spamcop.net': ['127.0.0.2'] } });
});
afterAll(() => dns.close());

let service: WatchService | undefined;
let clock: TestClock;
afterEach(async () => {
  await service?.close();
  service = undefined;
  dns.lying.setMode('honest');
});

async function start(env: Record<string, string> = {}) {
  clock = testClock();
  service = await startWatchService(dns.address, { clock, env });
  return service.watches;
}

/** A creation's input and its caller (the owner the routes pass), in one object. */
type CreateRequest = WatchInput & { subject: string; credential?: string };

const request = (extra: Partial<CreateRequest> = {}): CreateRequest => ({
  target: watchedIp,
  subject: '198.51.100.7',
  credential: operatorToken,
  ...extra,
});

/** Creates the watch as the request's caller. */
const create = (watches: Watches, { subject, credential, ...input }: CreateRequest) =>
  watches.create(input, { caller: subject, credential });

async function created(extra: Partial<CreateRequest> = {}) {
  const outcome = await create(service!.watches, request(extra));
  if (!outcome.ok) throw new Error(`${outcome.error}: ${outcome.reason}`);
  return outcome;
}

describe('creating a watch', () => {
  it('answers its id, its manage key and secret once, the first check and the view', async () => {
    await start();
    const outcome = await created({ webhook_url: 'https://hooks.example.com/x', interval_s: 900 });
    expect(outcome.watch.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(outcome.manage_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(outcome.webhook_secret).toMatch(/^whsec_/);
    expect(outcome.result).toMatchObject({ ip: watchedIp, ip_score: { verdict: 'good' } });
    const now = clock.now().getTime();
    expect(outcome.watch).toMatchObject({
      target: watchedIp,
      kind: 'ip',
      interval_s: 900,
      paused: false,
      ended: false,
      checked_at: new Date(now).toISOString(),
      next_check_at: new Date(now + 900_000).toISOString(),
      expires_at: new Date(now + 90 * 86_400_000).toISOString(),
      status: { verdict: 'good', listed_on: [] },
      history: [],
      webhook: { origin: 'https://hooks.example.com', failed_events: 0, paused: false },
    });
    const stored = await service!.services.store.get(`watch:${outcome.watch.id}`);
    expect(stored).not.toContain(outcome.manage_key);
    expect(JSON.parse(stored!).manage_key_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('takes WATCH_INTERVAL_S when no interval is named, and no secret without a webhook', async () => {
    await start({ WATCH_INTERVAL_S: '7200' });
    const outcome = await created();
    expect(outcome.watch.interval_s).toBe(7200);
    expect(outcome.webhook_secret).toBeUndefined();
    expect(outcome.watch.webhook).toBeNull();
  });

  it('keeps an IPv6 target in its RFC 5952 form, whatever form it was given in', async () => {
    await start();
    const ipv6 = await created({ target: '2A00:1450:4001:081A:0000:0000:0000:200E' });
    expect(ipv6.watch.target).toBe('2a00:1450:4001:81a::200e');
  });

  it.each([
    ['a private address', { target: '10.0.0.1' }, 'invalid_target', /not a public IPv4/],
    [
      'an address as a domain',
      { target: '8.8.8.8', kind: 'domain' as const },
      'invalid_target',
      /./,
    ],
    ['a single-label name', { target: 'intranet' }, 'invalid_target', /not public/],
    ['an interval below the minimum', { interval_s: 899 }, 'invalid_request', /from 900/],
    ['an interval over a week', { interval_s: 604_801 }, 'invalid_request', /604800/],
    ['a fractional interval', { interval_s: 900.5 }, 'invalid_request', /whole number/],
    ['a file: webhook', { webhook_url: 'file:///etc/passwd' }, 'invalid_webhook', /http or https/],
    [
      'a webhook to 10.0.0.0/8',
      { webhook_url: 'http://10.2.3.4/' },
      'invalid_webhook',
      /10\.2\.3\.4/,
    ],
    [
      'a webhook to 169.254.169.254',
      { webhook_url: 'http://169.254.169.254/' },
      'invalid_webhook',
      /not a public address/,
    ],
    ['a webhook to [::1]', { webhook_url: 'http://[::1]:8080/' }, 'invalid_webhook', /::1/],
  ])('refuses %s', async (_, extra, error, reason) => {
    await start({ WATCH_MIN_INTERVAL_S: '900', WATCH_INTERVAL_S: '3600' });
    const outcome = await create(service!.watches, request(extra));
    expect(outcome).toMatchObject({ ok: false, error, reason: expect.stringMatching(reason) });
  });

  it('is refused while the resolver lies, and takes no place under the caps', async () => {
    const watches = await start({ WATCH_PER_CALLER: '1' });
    dns.lying.setMode('nxdomain');
    expect(await create(watches, request())).toMatchObject({ ok: false, error: 'not_configured' });
    dns.lying.setMode('honest');
    await expect.poll(() => service!.services.isConfigured()).toBe(true);
    expect((await create(watches, request())).ok).toBe(true);
  });
});

describe('the caps', () => {
  it('refuses a caller past WATCH_PER_CALLER with watch_limit, counting IPv6 callers per /64', async () => {
    const watches = await start({ WATCH_PER_CALLER: '2' });
    // Strangers: the operator's watches count under WATCH_MAX alone.
    const subject = (address: string) => ({
      subject: quotaSubject(address),
      credential: undefined,
    });
    await created(subject('2001:db8:1:2::1'));
    await created({ ...subject('2001:db8:1:2::ffff'), target: otherIp });
    const third = await create(watches, request(subject('2001:db8:1:2:abcd::9')));
    expect(third).toMatchObject({ ok: false, error: 'watch_limit' });
    expect((await create(watches, request(subject('2001:db8:1:3::1')))).ok).toBe(true);
    // The same caller with OPERATOR_TOKEN is past no cap of a caller's.
    const asOperator = { subject: quotaSubject('2001:db8:1:2::1'), target: otherIp };
    expect((await create(watches, request(asOperator))).ok).toBe(true);
  });

  it('refuses anyone past WATCH_MAX with watch_capacity, holding no place for the caller', async () => {
    const watches = await start({ WATCH_MAX: '2', WATCH_PER_CALLER: '2' });
    // Callers of three networks: a network's own cap is not what refuses here.
    const first = await created({ subject: '198.51.100.1' });
    await created({ subject: '198.51.101.2' });
    expect(await create(watches, request({ subject: '198.51.102.3' }))).toMatchObject({
      ok: false,
      error: 'watch_capacity',
    });
    expect(await watches.remove(first.watch.id)).toEqual({ ok: true });
    expect((await create(watches, request({ subject: '198.51.102.3' }))).ok).toBe(true);
    expect((await create(watches, request({ subject: '198.51.102.3' }))).ok).toBe(false);
  });

  it('gives the last place to exactly one of 10 creations at once', async () => {
    const watches = await start({ WATCH_MAX: '3', WATCH_PER_CALLER: '20' });
    await created();
    await created();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => create(watches, request())),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
  });
});

describe('a watch’s manage key', () => {
  it('is checked against its hash: the key, a wrong key, an unknown watch', async () => {
    const watches = await start();
    const { watch, manage_key } = await created();
    expect(await watches.checkManageKey(watch.id, manage_key)).toBe('ok');
    const last = manage_key.at(-1) === 'A' ? 'B' : 'A';
    expect(await watches.checkManageKey(watch.id, `${manage_key.slice(0, -1)}${last}`)).toBe(
      'wrong',
    );
    expect(await watches.checkManageKey(watch.id, '')).toBe('wrong');
    expect(await watches.checkManageKey('AAAAAAAAAAAAAAAAAAAAAA', manage_key)).toBe('not_found');
  });
});

describe('changing a watch', () => {
  it('renews it, moves its interval and schedule, and keeps its secret for the same URL', async () => {
    const watches = await start();
    const { watch, webhook_secret } = await created({ webhook_url: 'https://a.example.com/h' });
    clock.advance(10 * 86_400_000);
    const same = await watches.update(watch.id, {
      interval_s: 120,
      webhook_url: 'https://a.example.com/h',
    });
    expect(same).toMatchObject({
      ok: true,
      watch: {
        interval_s: 120,
        expires_at: new Date(clock.now().getTime() + 90 * 86_400_000).toISOString(),
      },
    });
    expect(same.ok && same.webhook_secret).toBe(undefined);

    const moved = await watches.update(watch.id, { webhook_url: 'https://b.example.com/h' });
    expect(moved.ok && moved.webhook_secret).toMatch(/^whsec_/);
    expect(moved.ok && moved.webhook_secret).not.toBe(webhook_secret);
    expect(moved).toMatchObject({ watch: { webhook: { origin: 'https://b.example.com' } } });

    const removed = await watches.update(watch.id, { webhook_url: null });
    expect(removed).toMatchObject({ ok: true, watch: { webhook: null } });
    expect(await watches.update(watch.id, { webhook_url: 'ftp://x.example.com/' })).toMatchObject({
      ok: false,
      error: 'invalid_webhook',
    });
    expect(await watches.update(watch.id, { interval_s: 0 })).toMatchObject({
      ok: false,
      error: 'invalid_request',
    });
  });

  it('stops checking a paused watch and checks it again once resumed', async () => {
    const watches = await start();
    const { watch } = await created({ interval_s: 60 });
    const checkedAt = async () => (await watches.view(watch.id))?.checked_at;
    const first = await checkedAt();
    await watches.update(watch.id, { paused: true });
    clock.advance(60_000);
    await service!.runUntilIdle();
    expect(await checkedAt()).toBe(first);
    await watches.update(watch.id, { paused: false });
    await service!.runUntilIdle();
    expect(await checkedAt()).toBe(clock.now().toISOString());
  });
});

describe('deleting a watch', () => {
  it('ends it, its schedule and its place: afterwards it is unknown to every call', async () => {
    const watches = await start({ WATCH_PER_CALLER: '1' });
    const { watch, manage_key } = await created();
    expect(await service!.services.store.countDue('watch-queue:checks')).toBe(1);
    expect(await watches.remove(watch.id)).toEqual({ ok: true });
    expect(await service!.services.store.countDue('watch-queue:checks')).toBe(0);
    expect(await watches.view(watch.id)).toBeUndefined();
    expect(await watches.checkManageKey(watch.id, manage_key)).toBe('not_found');
    for (const outcome of [
      await watches.remove(watch.id),
      await watches.update(watch.id, { paused: true }),
      await watches.sendTest(watch.id),
    ]) {
      expect(outcome).toMatchObject({ ok: false, error: 'not_found' });
    }
    expect((await create(watches, request())).ok).toBe(true);
  });
});

describe('a watch not renewed', () => {
  it('ends after WATCH_TTL_DAYS: its view says so, it leaves the queue, and frees its place', async () => {
    const watches = await start({ WATCH_TTL_DAYS: '1', WATCH_PER_CALLER: '1' });
    const { watch, manage_key } = await created({ interval_s: 3600 });
    clock.advance(86_400_000);
    expect(await watches.view(watch.id)).toMatchObject({ ended: true });
    expect(await watches.checkManageKey(watch.id, manage_key)).toBe('not_found');
    expect(await watches.update(watch.id, { paused: false })).toMatchObject({ error: 'not_found' });
    await service!.runUntilIdle();
    expect(await service!.services.store.countDue('watch-queue:checks')).toBe(0);
    expect((await create(watches, request())).ok).toBe(true);
  });
});

describe('another subsystem as the owner', () => {
  // A reports inbox keeping IP watches for the senders its reports name: its own id and cap.
  const inbox = (id: string, cap = 2) => ({ subsystem: 'reports', id, cap });

  it('creates within its own cap, and takes nothing of the callers’ caps', async () => {
    const watches = await start({ WATCH_PER_CALLER: '1', WATCH_MAX: '10' });
    for (const target of [watchedIp, otherIp]) {
      expect(await watches.create({ target }, inbox('inbox-1'))).toMatchObject({ ok: true });
    }
    const third = await watches.create({ target: '8.8.100.11' }, inbox('inbox-1'));
    expect(third).toMatchObject({
      ok: false,
      error: 'watch_limit',
      reason: 'reports keeps at most 2 live watches for inbox-1',
    });
    // Another inbox has a cap of its own, and a caller its own.
    expect((await watches.create({ target: watchedIp }, inbox('inbox-2'))).ok).toBe(true);
    expect((await created()).ok).toBe(true);
  });

  it('renews and removes its own watches only, and a removal frees its place', async () => {
    const watches = await start();
    const mine = await watches.create({ target: watchedIp, interval_s: 3600 }, inbox('inbox-1', 1));
    if (!mine.ok) throw new Error(mine.reason);
    const { id } = mine.watch;
    clock.advance(86_400_000);
    const renewed = await watches.update(id, {}, inbox('inbox-1', 1));
    expect(renewed).toMatchObject({ ok: true });
    expect(renewed.ok && Date.parse(renewed.watch.expires_at)).toBeGreaterThan(
      Date.parse(mine.watch.expires_at),
    );
    for (const outcome of [
      await watches.update(id, {}, inbox('inbox-2')),
      await watches.remove(id, inbox('inbox-2')),
    ]) {
      expect(outcome).toMatchObject({ ok: false, error: 'not_found' });
    }
    expect(await watches.remove(id, inbox('inbox-1', 1))).toEqual({ ok: true });
    expect((await watches.create({ target: otherIp }, inbox('inbox-1', 1))).ok).toBe(true);
  });
});
