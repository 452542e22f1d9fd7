import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import { type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.js';
import {
  alertsPerMailboxPerDay,
  alertsPerWatchPerDay,
  scheduleAfterCheck,
  type WatchConfig,
} from '../../src/watch/model/index.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';
import { freshRedisUrl } from '../support/redis.js';
import {
  operatorToken,
  startWatchService,
  type TestClock,
  testClock,
  useWatchWorld,
  type WatchService,
} from './support.js';

/**
 * A watch's cadence and alerts, bounded (docs/watches.md, "Confirmed changes"): at most
 * `confirmations - 1` confirming re-checks between two regular checks, however the answers
 * alternate; at most 24 alerts a watch and 50 e-mails a mailbox a UTC day, each bound counted in
 * reputation_watch_bounded_total, and held by two runners on one SQLite file and one Redis. The
 * fixture DNS world on the wire, the test's clock.
 */

const world = useWatchWorld();
const opened: WatchService[] = [];
afterEach(async () => {
  for (const service of opened.splice(0)) await service.close();
  world.dns.list({});
  world.receiver.answer(204);
});

const minute = 60_000;
const hour = 3_600_000;
const sqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'watch-cadence-')), 'store.db')}`;

async function bounded(service: WatchService, bound: string): Promise<number | undefined> {
  return sampleValue(
    parsePrometheusText(await service.metricsText()),
    'reputation_watch_bounded_total',
    { bound },
  );
}

describe('the next check', () => {
  const base = {
    claimedFor: 0,
    now: 1000,
    intervalS: 3600,
    minIntervalS: 900,
    confirmations: 3,
    previous: undefined,
  };

  it('keeps the cadence when nothing awaits', () => {
    expect(scheduleAfterCheck({ ...base, awaits: false })).toEqual({ at: hour, bounded: false });
  });

  it('comes a minute on while a change awaits, confirmations - 1 times, then at the regular check', () => {
    const first = scheduleAfterCheck({ ...base, awaits: true });
    expect(first).toMatchObject({ at: 1000 + minute, confirming: { used: 1 }, bounded: false });
    const second = scheduleAfterCheck({
      ...base,
      claimedFor: first.at,
      now: first.at + 500,
      awaits: true,
      previous: first.confirming,
    });
    expect(second).toMatchObject({ at: first.at + 500 + minute, confirming: { used: 2 } });
    const third = scheduleAfterCheck({
      ...base,
      claimedFor: second.at,
      now: second.at,
      awaits: true,
      previous: second.confirming,
    });
    expect(third).toEqual({ at: hour, bounded: true });
  });

  it('counts a check claimed for another time than the confirming one as a regular check', () => {
    const previous = {
      due_at: new Date(minute).toISOString(),
      regular_at: new Date(hour).toISOString(),
      used: 2,
    };
    // A PATCH moved the watch, or a lease ran out: the confirming re-checks start again.
    const moved = scheduleAfterCheck({
      ...base,
      claimedFor: 5 * minute,
      now: 5 * minute,
      awaits: true,
      previous,
    });
    expect(moved).toMatchObject({ at: 6 * minute, confirming: { used: 1 } });
    // The service was down past the regular check: this one stands for it.
    const late = scheduleAfterCheck({
      ...base,
      claimedFor: minute,
      now: 2 * hour,
      awaits: true,
      previous,
    });
    expect(late).toMatchObject({ at: 2 * hour + minute, confirming: { used: 1 } });
  });

  it('never comes sooner than the regular check for a confirming one', () => {
    // A 30 s interval: the confirming re-check would come after the regular one, which is it.
    expect(scheduleAfterCheck({ ...base, intervalS: 30, minIntervalS: 30, awaits: true })).toEqual({
      at: 30_000,
      bounded: false,
    });
  });
});

describe('a mail watch whose DKIM key alternates between two new values', () => {
  const domain = 'alternating-mail.net';
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');
  const zone = (record: string): FixtureZone[] => [
    {
      origin: domain,
      records: {
        [domain]: { TXT: ['v=spf1 -all'] },
        [`_dmarc.${domain}`]: { TXT: ['v=DMARC1; p=reject'] },
        [`s1._domainkey.${domain}`]: { TXT: [record] },
      },
    },
  ];

  it('is re-checked at most confirmations - 1 times between two regular checks', async () => {
    world.dns.list({}, zone(`v=DKIM1; p=${key}`));
    const clock = testClock();
    const service = await startWatchService(world.dns.address, {
      clock,
      env: { WATCH_MIN_INTERVAL_S: '300', WATCH_INTERVAL_S: '3600' },
    });
    opened.push(service);
    const created = await service.watches.create(
      { target: domain, kind: 'mail', dkim_selectors: ['s1'], interval_s: 3600, confirmations: 3 },
      { caller: '198.51.100.60', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    const { id } = created.watch;
    const regular = Date.parse(created.watch.checked_at!) + hour;
    const checks: number[] = [];
    for (let i = 0; i < 12; i++) {
      // Revoked, then a key that is no key, and again: never the same value twice in a row.
      world.dns.list({}, zone(i % 2 === 0 ? 'v=DKIM1; p=' : 'v=DKIM1; p=not-a-key!'));
      const view = (await service.watches.view(id))!;
      clock.advance(Math.max(0, Date.parse(view.next_check_at!) - clock.now().getTime()));
      await service.runUntilIdle();
      checks.push(Date.parse((await service.watches.view(id))!.checked_at!));
    }
    // Each interval: its regular check, then two confirming re-checks a minute apart.
    const offsets = checks.map((at) => Math.round((at - regular) / 1000));
    const expected = [0, 1, 2, 3].flatMap((k) => [k * 3600, k * 3600 + 60, k * 3600 + 120]);
    expect(offsets.map((offset, i) => offset - expected[i]!).every((d) => d >= 0 && d < 2)).toBe(
      true,
    );
    expect(await bounded(service, 'confirming_checks')).toBe(4);
  }, 60_000);
});

describe.each([
  ['memory', () => 'memory:', 1],
  ['sqlite', sqliteUrl, 2],
  ['redis', freshRedisUrl, 2],
])('alerts of a UTC day, on a %s store', (name, storeUrl, runners) => {
  /** Runners on one store (two: as two processes or two machines share it), one clock. */
  async function open(clock: TestClock, env: Record<string, string> = {}) {
    const url = await storeUrl();
    const services: WatchService[] = [];
    for (let i = 0; i < runners; i++) {
      services.push(
        await startWatchService(world.dns.address, {
          storeUrl: url,
          clock,
          env: { WATCH_PER_CALLER: '100', ...env },
        }),
      );
    }
    opened.push(...services);
    return services;
  }

  /** A clock at 01:00 UTC of the next day: every check of the test falls in one UTC day. */
  function morningClock(): TestClock {
    const clock = testClock();
    const now = clock.now().getTime();
    clock.advance(Math.ceil(now / (24 * hour)) * 24 * hour + hour - now);
    return clock;
  }

  /** Lists or delists the targets, one check a minute on, every runner ticking. */
  async function flip(services: WatchService[], clock: TestClock, targets: string[], i: number) {
    const listed = i % 2 === 0;
    world.dns.list(
      listed
        ? Object.fromEntries(
            targets.map((target) => [target, { 'zen.spamhaus.org': ['127.0.0.2'] }]),
          )
        : {},
    );
    clock.advance(minute);
    await Promise.all(services.map((service) => service.runUntilIdle()));
  }

  it(`sends at most ${alertsPerWatchPerDay} of a watch, recording every change`, async () => {
    const clock = morningClock();
    const services = await open(clock);
    const target = '8.8.100.71';
    const path = `/cadence/${name}/watch`;
    const created = await services[0]!.watches.create(
      { target, interval_s: 60, confirmations: 1, webhook_url: world.receiver.url(path) },
      { caller: '198.51.100.61', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    for (let i = 0; i < 30; i++) await flip(services, clock, [target], i);
    const received = () => world.receiver.received.filter((request) => request.path === path);
    expect(received()).toHaveLength(alertsPerWatchPerDay);
    expect((await services[0]!.watches.view(created.watch.id))!.history).toHaveLength(30);
    const counted = await Promise.all(services.map((service) => bounded(service, 'watch_alerts')));
    expect(counted.reduce((sum, value) => sum! + value!, 0)).toBe(30 - alertsPerWatchPerDay);
    // The next UTC day, alerts go out again.
    clock.advance(24 * hour);
    await flip(services, clock, [target], 30);
    expect(received()).toHaveLength(alertsPerWatchPerDay + 1);
  }, 120_000);

  it(`sends at most ${alertsPerMailboxPerDay} e-mails to a mailbox, over all its watches`, async () => {
    const inbox: SmtpInbox = await startSmtpInbox();
    try {
      const clock = morningClock();
      const services = await open(clock, {
        SMTP_URL: inbox.url,
        ALERT_FROM: 'alerts@rep.example.org',
        PUBLIC_URL: 'https://rep.example.org',
      });
      const store = services[0]!.services.store;
      const targets = ['8.8.100.72', '8.8.100.73', '8.8.100.74'];
      for (const [i, target] of targets.entries()) {
        const created = await services[0]!.watches.create(
          { target, interval_s: 60, confirmations: 1 },
          { caller: '198.51.100.62', credential: operatorToken },
        );
        if (!created.ok) throw new Error(created.reason);
        // Its address confirmed, as its link's POST would: +tag variants of one mailbox.
        const key = `watch:${created.watch.id}`;
        const config = JSON.parse((await store.get(key))!) as WatchConfig;
        const email = { address: `inbox+${i}@example.org`, confirmed: true, unsubscribe: `u${i}` };
        await store.set(key, JSON.stringify({ ...config, email }), 48 * hour);
      }
      for (let i = 0; i < 25; i++) await flip(services, clock, targets, i);
      await inbox.waitFor(alertsPerMailboxPerDay, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(inbox.received).toHaveLength(alertsPerMailboxPerDay);
      const counted = await Promise.all(
        services.map((service) => bounded(service, 'mailbox_alerts')),
      );
      expect(counted.reduce((sum, value) => sum! + value!, 0)).toBe(
        3 * alertsPerWatchPerDay - alertsPerMailboxPerDay,
      );
    } finally {
      await inbox.close();
    }
  }, 120_000);
});

afterAll(() => world.dns.list({}));
