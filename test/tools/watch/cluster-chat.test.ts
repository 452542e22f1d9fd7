import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { type ReceivedWebhook, signatureOf } from '../../../fixtures/webhook-receiver.js';
import type { CreatedWatch, PublicWatch } from '../../support/responses.js';
import { freshRedisUrl } from '../../support/redis.js';
import { killServerProcesses, startServerProcess } from '../../support/server-process.js';
import { useWatchWorld, zones } from '../../watch/support.js';

/**
 * Chat formats and confirmed changes under WORKERS=2 (docs/watches.md, "Chat formats",
 * "Confirmed changes"): the real service process with two worker processes on one SQLite file or
 * one Redis database,
 * re-checking every second on their own timers while the fixture DNS world lists the watched
 * address. The re-check that hears a listing and the one that confirms it are whichever worker
 * claims them; the Slack message is sent once. A list that answers the listing to one query and
 * then never again (the fixture's `onlyFirst`) is heard by one re-check at most: no one is told.
 */

const world = useWatchWorld();
afterEach(() => killServerProcesses());

const operatorToken = 'operator-token-of-the-cluster-chat-tests';
const zen = 'zen.spamhaus.org';

function environment(storeUrl: string): Record<string, string> {
  return {
    DNS_SERVERS: world.dns.address,
    DNS_TIMEOUT_MS: '2000',
    CHECK_DEADLINE_MS: '3000',
    STORE_URL: storeUrl,
    WATCH_MIN_INTERVAL_S: '1',
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
    OPERATOR_TOKEN: operatorToken,
    WORKERS: '2',
  };
}

async function createWatch(url: string, target: string, path: string) {
  const response = await fetch(`${url}/watch/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify({
      target,
      interval_s: 1,
      webhook_url: world.receiver.url(path),
      webhook_format: 'slack',
    }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedWatch & { webhook_secret: string };
}

async function viewOf(url: string, id: string): Promise<PublicWatch> {
  return (await (await fetch(`${url}/watch/v1/${id}`)).json()) as PublicWatch;
}

const reversed = (ip: string) => ip.split('.').reverse().join('.');
const receivedAt = (path: string) =>
  world.receiver.received.filter((request) => request.path === path);

/** The Slack text of a delivery, its signature checked over the bytes sent. */
function slackText(request: ReceivedWebhook, secret: string): string {
  expect(request.headers['webhook-signature']).toBe(signatureOf(request, secret));
  return (JSON.parse(request.body) as { text: string }).text;
}

const sqliteUrl = () =>
  `sqlite:${join(mkdtempSync(join(tmpdir(), 'watch-cluster-chat-')), 'store.db')}`;

describe.each([
  ['sqlite', async () => sqliteUrl()],
  ['redis', freshRedisUrl],
])('WORKERS=2 on one %s store', (store, storeUrl) => {
  it(
    'sends one Slack message for a confirmed listing and one for its delisting, and none for a listing heard once',
    { timeout: 60_000 },
    async () => {
      world.dns.list({});
      const server = await startServerProcess(environment(await storeUrl()), { listeners: 2 });
      const steady = await createWatch(server.url, '8.8.100.61', `/cluster/${store}/steady`);
      const flapping = await createWatch(server.url, '8.8.100.62', `/cluster/${store}/flapping`);
      expect(steady).toMatchObject({ confirmations: 2, webhook: { format: 'slack' } });

      // The steady address is listed for good; the flapping one answers its listing once.
      const listings = {
        '8.8.100.61': { [zen]: ['127.0.0.2'] },
        '8.8.100.62': { [zen]: ['127.0.0.2'] },
      };
      const once = `${reversed('8.8.100.62')}.${zen}`;
      world.dns.dns.setZones(
        dnsblWorld(zones, listings).map((zone) =>
          zone.records?.[once]
            ? {
                ...zone,
                records: { ...zone.records, [once]: { ...zone.records[once], onlyFirst: 1 } },
              }
            : zone,
        ),
      );
      const asked = () => world.dns.dns.queries.filter((query) => query.name === once).length;
      const askedBefore = asked();

      await expect
        .poll(() => receivedAt(`/cluster/${store}/steady`).length, {
          timeout: 20_000,
          interval: 200,
        })
        .toBe(1);
      const listed = slackText(receivedAt(`/cluster/${store}/steady`)[0]!, steady.webhook_secret);
      expect(listed).toContain('is newly listed');
      expect(listed).toContain(zen);

      // Three re-checks of the flapping address past the one that heard it: nothing to anyone.
      await expect
        .poll(() => asked() - askedBefore, { timeout: 20_000, interval: 200 })
        .toBeGreaterThanOrEqual(4);
      expect(receivedAt(`/cluster/${store}/flapping`)).toEqual([]);
      const flapView = await viewOf(server.url, flapping.id);
      expect(flapView.history).toEqual([]);
      expect(flapView.status?.listed_on).toEqual([]);

      world.dns.list({});
      await expect
        .poll(() => receivedAt(`/cluster/${store}/steady`).length, {
          timeout: 20_000,
          interval: 200,
        })
        .toBe(2);
      expect(
        slackText(receivedAt(`/cluster/${store}/steady`)[1]!, steady.webhook_secret),
      ).toContain('delisted');
      // Two more seconds of re-checks by both workers add nothing.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(receivedAt(`/cluster/${store}/steady`)).toHaveLength(2);
      expect(receivedAt(`/cluster/${store}/flapping`)).toEqual([]);
      expect((await viewOf(server.url, steady.id)).history).toHaveLength(2);
      expect(await server.stop()).toBe(0);
    },
  );
});
