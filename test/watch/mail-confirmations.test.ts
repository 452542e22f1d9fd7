import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rsaDkimKeys } from '../../fixtures/dkim-keys.js';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import { freePort } from '../../fixtures/free-port.js';
import { issueCertificate, type Listening, startSmtpServer } from '../../fixtures/mail-world.js';
import {
  signatureOf,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../fixtures/webhook-receiver.js';
import { freshRedisUrl } from '../support/redis.js';
import {
  operatorToken,
  startWatchDns,
  startWatchService,
  type TestClock,
  testClock,
  type WatchDns,
  type WatchService,
} from './support.js';
import type { WatchEvent } from '../../src/watch/index.js';

/**
 * A mail watch's confirmations through the runner (docs/watches.md, "Mail watches", "Confirmed
 * changes"), on each store: the fixture DNS world on the wire removes a DKIM key record for one
 * re-check and brings it back, or removes it for good, while the runner re-checks the watch (its
 * MX a real SMTP server with STARTTLS on 127.0.0.2) and delivers to a real receiver. The clock is
 * the test's; the confirming re-check comes within WATCH_MIN_INTERVAL_S.
 */

const ca = inject('mailCa');
const domain = 'confirmed-mail.net';
const keyName = `s1._domainkey.${domain}`;
const key = rsaDkimKeys[2048];
const interval = 3600;
const minIntervalS = 300;

const zone = (withKey: boolean): FixtureZone[] => [
  {
    origin: domain,
    records: {
      [domain]: { TXT: ['v=spf1 -all'], MX: [{ exchange: `mx.${domain}`, priority: 10 }] },
      [`mx.${domain}`]: { A: ['127.0.0.2'] },
      [`_dmarc.${domain}`]: { TXT: ['v=DMARC1; p=reject'] },
      ...(withKey ? { [keyName]: { TXT: [`v=DKIM1; p=${key}`] } } : {}),
    },
  },
];

let dns: WatchDns;
let smtp: Listening;
let receiver: WebhookReceiver;
let service: WatchService;
let clock: TestClock;
let port: number;

beforeAll(async () => {
  port = await freePort();
  smtp = await startSmtpServer({
    host: '127.0.0.2',
    port,
    tls: await issueCertificate(ca, [`mx.${domain}`]),
  });
  dns = await startWatchDns({}, zone(true));
  receiver = await startWebhookReceiver();
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await dns?.close();
  await smtp?.close();
});

async function watchOf(path: string) {
  const created = await service.watches.create(
    {
      target: domain,
      kind: 'mail',
      dkim_selectors: ['s1'],
      interval_s: interval,
      webhook_url: receiver.url(path),
    },
    { caller: '198.51.100.1', credential: operatorToken },
  );
  if (!created.ok) throw new Error(created.reason);
  return { id: created.watch.id, secret: created.webhook_secret!, view: created.watch };
}

/** Moves the clock to the watch's next check and runs every check and delivery due then. */
async function nextCheck(id: string) {
  const view = await service.watches.view(id);
  clock.advance(Math.max(0, Date.parse(view!.next_check_at!) - clock.now().getTime()));
  await service.runUntilIdle();
  return (await service.watches.view(id))!;
}

const receivedAt = (path: string) => receiver.received.filter((request) => request.path === path);

const sqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'mail-watch-')), 'store.db')}`;

describe.each([
  ['memory', () => 'memory:'],
  ['SQLite', sqliteUrl],
  ['Redis', freshRedisUrl],
])('a mail watch with confirmations 2 (the default), on the %s store', (name, storeUrl) => {
  beforeAll(async () => {
    dns.list({}, zone(true));
    clock = testClock();
    service = await startWatchService(dns.address, {
      clock,
      storeUrl: await storeUrl(),
      env: {
        WATCH_MIN_INTERVAL_S: String(minIntervalS),
        WATCH_INTERVAL_S: String(interval),
        PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
        PROBE_SMTP_PORT: String(port),
        SMTP_TIMEOUT_MS: '2000',
      },
    });
  }, 60_000);
  afterAll(() => service?.close());

  it('reports to no one a DKIM key gone for one check, and once a key gone for two', async () => {
    const path = `/mail/${name}`;
    const { id, view, secret } = await watchOf(path);
    expect(view).toMatchObject({ confirmations: 2, status: { mail: { dkim_selectors: ['s1'] } } });

    dns.list({}, zone(false));
    const heard = await nextCheck(id);
    // Heard once: not yet a change, the view keeps the known setup, the next check comes soon.
    expect(heard.status?.mail?.dkim_selectors).toEqual(['s1']);
    const soon = Date.parse(heard.next_check_at!) - Date.parse(heard.checked_at!);
    expect(soon).toBeLessThanOrEqual(minIntervalS * 1000);
    dns.list({}, zone(true));
    await nextCheck(id);
    await nextCheck(id);
    expect(receivedAt(path)).toEqual([]);
    expect((await service.watches.view(id))!.history).toEqual([]);

    dns.list({}, zone(false));
    const regular = await nextCheck(id);
    expect(receivedAt(path)).toEqual([]);
    const confirmed = await nextCheck(id);
    expect(receivedAt(path)).toHaveLength(1);
    // The test's clock is hours ahead, past the five minutes a verifier allows: the signature is
    // computed again over the timestamp sent, as the verifier would.
    const request = receivedAt(path)[0]!;
    expect(request.headers['webhook-signature']).toBe(signatureOf(request, secret));
    const event = JSON.parse(request.body) as WatchEvent;
    expect(event.type).toBe('watch.changed');
    expect(event.data.changes).toContainEqual({
      what: 'dkim',
      subject: 's1',
      from: 'found',
      to: 'none',
      detail: null,
    });
    expect(confirmed.history).toHaveLength(1);
    expect(confirmed.status?.mail?.dkim_selectors).toEqual([]);
    // Back to its cadence: an interval after the regular check that first heard it.
    expect(Date.parse(confirmed.next_check_at!) - Date.parse(regular.checked_at!)).toBe(
      interval * 1000,
    );
  }, 60_000);
});
