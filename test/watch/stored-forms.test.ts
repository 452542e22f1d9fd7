import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.js';
import {
  currentDelivery,
  currentState,
  queues,
  type WatchConfig,
  type WatchState,
  watchStateSchema,
} from '../../src/watch/model/index.js';
import { freshRedisUrl } from '../support/redis.js';
import {
  operatorToken,
  startWatchService,
  testClock,
  useWatchWorld,
  verified,
  watchedIp,
  type WatchService,
} from './support.js';

/**
 * Watch state stored by an earlier version (docs/watch-engine.md, "Storage and migration"): its
 * lists by zone, its sender addresses' lists by address, a mail watch's facts by `<what>:<subject>`
 * and its unconfirmed changes under string keys, and a pending e-mail named `mail`. Read as the
 * current form (a table), and on every store (memory, a SQLite file, a redis-server) carried on by
 * the next re-check or retry, which writes it back the new way.
 */

describe('the old forms, read as the new', () => {
  const zen = 'zen.spamhaus.org';
  const oldState = {
    lists: {
      [zen]: {
        status: 'listed',
        name: 'Spamhaus ZEN',
        codes: ['127.0.0.2'],
        meaning: 'SBL',
        since: '2026-11-01T10:00:00.000Z',
      },
      'bl.spamcop.net': { status: 'not_listed', name: 'SpamCop' },
    },
    addresses: { '192.0.2.1': { [zen]: { status: 'not_listed', name: 'Spamhaus ZEN' } } },
    mail: {
      'certificate:mx1.example.com': {
        what: 'certificate',
        subject: 'mx1.example.com',
        value: 'valid',
        detail: '80 days left',
        not_after: '2027-02-01T00:00:00.000Z',
      },
    },
    unconfirmed: {
      'bl.spamcop.net': { status: 'listed', seen: 1 },
      [`192.0.2.1 ${zen}`]: { status: 'listed', seen: 2 },
      'mail:certificate:mx1.example.com': { status: 'expiring', seen: 1 },
      'mail:dkim:s1:v2': { status: 'revoked', seen: 1 },
    },
    checked_at: '2026-11-02T10:00:00.000Z',
    next_check_at: '2026-11-02T11:00:00.000Z',
    status: {
      verdict: 'poor',
      score: 60,
      listed_on: [{ zone: zen, name: 'Spamhaus ZEN' }],
      lists: [],
    },
    history: [],
    outbox: [
      {
        id: 'evt_a',
        watch_id: 'w',
        body: '{}',
        attempts: 0,
        mail: { to: 'a@b.example.com', kind: 'alert' },
      },
    ],
  };

  it('reads every fact of the old form, each unconfirmed change by its fact’s key', () => {
    const state = watchStateSchema.parse(currentState(oldState));
    expect(state.facts).toEqual([
      {
        what: 'list',
        subject: zen,
        value: 'listed',
        detail: { name: 'Spamhaus ZEN', codes: ['127.0.0.2'], meaning: 'SBL' },
        since: '2026-11-01T10:00:00.000Z',
      },
      { what: 'list', subject: 'bl.spamcop.net', value: 'not_listed', detail: { name: 'SpamCop' } },
      {
        what: 'list',
        subject: zen,
        address: '192.0.2.1',
        value: 'not_listed',
        detail: { name: 'Spamhaus ZEN' },
      },
      oldState.mail['certificate:mx1.example.com'],
    ]);
    expect(state.unconfirmed).toEqual([
      { what: 'list', subject: 'bl.spamcop.net', value: 'listed', seen: 1 },
      { what: 'list', subject: zen, address: '192.0.2.1', value: 'listed', seen: 2 },
      { what: 'certificate', subject: 'mx1.example.com', value: 'expiring', seen: 1 },
      // A selector may hold a colon; the kind before it never does.
      { what: 'dkim', subject: 's1:v2', value: 'revoked', seen: 1 },
    ]);
    expect(state.outbox[0]).toEqual({
      id: 'evt_a',
      watch_id: 'w',
      body: '{}',
      attempts: 0,
      email: { to: 'a@b.example.com', kind: 'alert' },
    });
    expect(state).not.toHaveProperty('lists');
  });

  it('leaves the new form as it is', () => {
    const state = watchStateSchema.parse(currentState(oldState));
    expect(currentState(state)).toEqual(state);
    const delivery = {
      id: 'evt_b',
      watch_id: 'w',
      body: '',
      attempts: 1,
      email: { to: 'x@y.z', kind: 'confirm' },
    };
    expect(currentDelivery(delivery)).toEqual(delivery);
    const { email, ...older } = delivery;
    expect(currentDelivery({ ...older, mail: email })).toEqual(delivery);
  });
});

const world = useWatchWorld();
let inbox: SmtpInbox;
beforeAll(async () => {
  inbox = await startSmtpInbox();
});
afterAll(() => inbox.close());

const opened: WatchService[] = [];
afterEach(async () => {
  for (const service of opened.splice(0)) await service.close();
  world.dns.list({});
  inbox.refuse(false);
});

const zen = 'zen.spamhaus.org';
const interval = 60;
const address = 'postmaster@watch-owner.net';
const sqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'stored-forms-')), 'store.db')}`;

/** An event's body as the earlier version kept it: its type, and what changed. */
function eventBody(
  id: string,
  type: 'watch.listed' | 'watch.delisted',
  change: { added?: object[]; removed?: object[]; listed_on?: object[] },
) {
  const watch = { id, target: watchedIp, kind: 'ip', page_url: 'https://r.example/p' };
  return JSON.stringify({
    type,
    created_at: new Date().toISOString(),
    data: {
      watch: { ...watch, badge_url: 'https://r.example/b' },
      added: [],
      removed: [],
      listed_on: [],
      ...change,
      verdict: type === 'watch.listed' ? 'poor' : 'good',
      score: type === 'watch.listed' ? 60 : 100,
    },
  });
}

/** Its alerts go to a confirmed address, as one confirmed before the upgrade. */
async function confirmAddress(store: WatchService['services']['store'], id: string) {
  const config = JSON.parse((await store.get(`watch:${id}`))!) as WatchConfig;
  const email = { address, confirmed: true, unsubscribe: 'unsubscribe-code' };
  await store.set(`watch:${id}`, JSON.stringify({ ...config, email }), 3_600_000);
}

describe.each([
  ['memory', async () => 'memory:'],
  ['sqlite', async () => sqliteUrl()],
  ['redis', freshRedisUrl],
])('on a %s store', (_name, storeUrl) => {
  async function open() {
    const clock = testClock();
    const service = await startWatchService(world.dns.address, {
      storeUrl: await storeUrl(),
      clock,
      retryDelaysMs: [1000, 1000, 1000],
      env: {
        SMTP_URL: inbox.url,
        ALERT_FROM: 'Reputation <alerts@rep.example.org>',
        PUBLIC_URL: 'https://rep.example.org',
      },
    });
    opened.push(service);
    return { service, clock, store: service.services.store };
  }

  it('carries on a state stored the old way: its unconfirmed listing confirmed, its outbox’s e-mail sent, the state written anew', async () => {
    const { service, clock, store } = await open();
    const path = `/stored-forms/${_name}`;
    const created = await service.watches.create(
      {
        target: watchedIp,
        interval_s: interval,
        webhook_url: world.receiver.url(path),
        confirmations: 2,
      },
      { caller: '198.51.100.40', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    const { id } = created.watch;
    await confirmAddress(store, id);
    // The state as the earlier version wrote it: one check had heard ZEN list the address.
    const state = JSON.parse((await store.get(`watch-state:${id}`))!) as WatchState;
    const lists = Object.fromEntries(
      state.facts.flatMap((fact) =>
        fact.what === 'list' ? [[fact.subject, { status: fact.value, ...fact.detail }]] : [],
      ),
    );
    const earlierAlert = eventBody(id, 'watch.delisted', {
      removed: [{ zone: 'bl.spamcop.net', name: 'SpamCop', code: '127.0.0.2', meaning: 'spam' }],
    });
    const { facts: _facts, ...rest } = state;
    const old = {
      ...rest,
      lists,
      unconfirmed: { [zen]: { status: 'listed', seen: 1 } },
      outbox: [
        {
          id: 'evt_AAAAAAAAAAAAAAAAAAAAAA',
          watch_id: id,
          body: earlierAlert,
          attempts: 0,
          queued_at: clock.now().getTime(),
          mail: { to: address, kind: 'alert' },
        },
      ],
    };
    await store.set(`watch-state:${id}`, JSON.stringify(old), 3_600_000);

    world.dns.list({ [watchedIp]: { [zen]: ['127.0.0.2'] } });
    clock.advance(interval * 1000);
    await service.runUntilIdle();

    // The count heard before the upgrade goes on: this second check confirms the listing.
    const received = world.receiver.received.filter((request) => request.path === path);
    expect(received.map((request) => verified(created.webhook_secret!, request).type)).toEqual([
      'watch.listed',
    ]);
    const mails = await inbox.waitFor(2);
    const ours = mails
      .filter((mail) => mail.envelope.to.includes(address))
      .map((mail) => mail.subject);
    expect(ours).toEqual(
      expect.arrayContaining([
        `${watchedIp} was delisted from SpamCop`,
        `${watchedIp} is newly listed on Spamhaus ZEN`,
      ]),
    );
    // Written back the new way.
    const stored = JSON.parse((await store.get(`watch-state:${id}`))!) as Record<string, unknown>;
    expect(stored).not.toHaveProperty('lists');
    expect(stored).not.toHaveProperty('unconfirmed');
    expect(stored.facts).toContainEqual(
      expect.objectContaining({ what: 'list', subject: zen, value: 'listed' }),
    );
    inbox.received.splice(0);
  });

  it('sends a pending e-mail stored as `mail`, writing it back as `email` when it is retried', async () => {
    const { service, clock, store } = await open();
    const created = await service.watches.create(
      { target: watchedIp, interval_s: 3600 },
      { caller: '198.51.100.41', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    const { id } = created.watch;
    await confirmAddress(store, id);
    const eventId = 'evt_BBBBBBBBBBBBBBBBBBBBBB';
    const body = eventBody(id, 'watch.listed', {
      added: [{ zone: zen, name: 'Spamhaus ZEN', code: '127.0.0.2', meaning: 'SBL' }],
      listed_on: [{ zone: zen, name: 'Spamhaus ZEN' }],
    });
    const at = clock.now().getTime();
    const old = {
      id: eventId,
      watch_id: id,
      body,
      attempts: 0,
      queued_at: at,
      mail: { to: address, kind: 'alert' },
    };
    await store.set(`watch-delivery:${eventId}`, JSON.stringify(old), 3_600_000);
    await store.putDue(queues.pendingOf(id), eventId, at);
    await store.putDue(queues.pendingByAge, eventId, at);
    await store.putDue(queues.deliveries, eventId, at);

    inbox.refuse(true);
    await service.runUntilIdle();
    const retried = JSON.parse((await store.get(`watch-delivery:${eventId}`))!) as Record<
      string,
      unknown
    >;
    expect(retried).toMatchObject({ attempts: 1, email: { to: address, kind: 'alert' } });
    expect(retried).not.toHaveProperty('mail');

    inbox.refuse(false);
    clock.advance(1000);
    await service.runUntilIdle();
    const [mail] = await inbox.waitFor(1);
    expect(mail!.subject).toBe(`${watchedIp} is newly listed on Spamhaus ZEN`);
    expect(await store.get(`watch-delivery:${eventId}`)).toBeUndefined();
    inbox.received.splice(0);
  });
});
