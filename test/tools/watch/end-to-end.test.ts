import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreatedWatch, PublicWatch, WatchEvent } from '../../support/responses.js';
import { killServerProcesses, startServerProcess } from '../../support/server-process.js';
import { useWatchWorld, watchedIp } from '../../watch/support.js';

/**
 * A watch through the real service process (src/server.ts, as `npm start` runs it): created over
 * HTTP, re-checked by the process's own timer every second while the fixture DNS world lists and
 * then delists its address, each delivery to a local receiver verified with the standardwebhooks
 * package; with two worker processes on one SQLite file, each change is still delivered once.
 */

const world = useWatchWorld();
afterEach(() => killServerProcesses());

const listing = { [watchedIp]: { 'zen.spamhaus.org': ['127.0.0.2'] } };

const operatorToken = 'operator-token-of-the-tests';

function environment(workers: number): Record<string, string> {
  return {
    DNS_SERVERS: world.dns.address,
    DNS_TIMEOUT_MS: '2000',
    CHECK_DEADLINE_MS: '3000',
    STORE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'watch-e2e-')), 'store.db')}`,
    WATCH_MIN_INTERVAL_S: '1',
    // The receiver listens on 127.0.0.1: the operator's watches may reach it.
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
    OPERATOR_TOKEN: operatorToken,
    WORKERS: String(workers),
  };
}

/** POST /watch/v1 of the watched address, with the receiver as its webhook. */
async function createWatch(
  url: string,
  intervalS: number,
): Promise<CreatedWatch & { webhook_secret: string }> {
  const response = await fetch(`${url}/watch/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify({
      target: watchedIp,
      interval_s: intervalS,
      webhook_url: world.receiver.url('/hook'),
    }),
  });
  expect(response.status).toBe(201);
  const created = (await response.json()) as CreatedWatch;
  // A watch created with a webhook_url is shown its secret, once.
  if (created.webhook_secret === undefined) throw new Error('no webhook_secret in the answer');
  return { ...created, webhook_secret: created.webhook_secret };
}

/** A watch's view; with its manage key, as its holder reads it (the last delivery's outcome too). */
async function readWatch(url: string, id: string, manageKey?: string): Promise<PublicWatch> {
  const headers: Record<string, string> =
    manageKey === undefined ? {} : { authorization: `Bearer ${manageKey}` };
  return (await (await fetch(`${url}/watch/v1/${id}`, { headers })).json()) as PublicWatch;
}

/** The verified events of the receiver's deliveries, in order; throws on a bad signature. */
function verifiedTypes(secret: string): string[] {
  const verifier = new Webhook(secret);
  return world.receiver.received.map(
    (delivery) => (verifier.verify(delivery.body, delivery.headers) as WatchEvent).type,
  );
}

describe.each([1, 2])('with WORKERS=%i on one SQLite file', (workers) => {
  it(
    'delivers exactly one watch.listed and one watch.delisted, each signed',
    { timeout: 60_000 },
    async () => {
      world.dns.list({});
      world.receiver.received.length = 0;
      const server = await startServerProcess(environment(workers), { listeners: workers });
      const watch = await createWatch(server.url, 1);
      const types = () => verifiedTypes(watch.webhook_secret);

      world.dns.list(listing);
      await expect.poll(types, { timeout: 20_000, interval: 200 }).toEqual(['watch.listed']);
      world.dns.list({});
      await expect
        .poll(types, { timeout: 20_000, interval: 200 })
        .toEqual(['watch.listed', 'watch.delisted']);

      // Two more checks of the unchanged world add nothing.
      const checkedAt = async () => (await readWatch(server.url, watch.id)).checked_at ?? '';
      const after = await checkedAt();
      await expect
        .poll(async () => Date.parse(await checkedAt()) - Date.parse(after), { timeout: 10_000 })
        .toBeGreaterThanOrEqual(2000);
      expect(types()).toEqual(['watch.listed', 'watch.delisted']);
      const view = await readWatch(server.url, watch.id, watch.manage_key);
      expect(view.history).toHaveLength(2);
      expect(view.webhook?.last_delivery?.outcome).toBe('delivered');
      expect(await server.stop()).toBe(0);
    },
  );
});

describe('a restart of the service process', () => {
  it(
    'keeps the watch and its pending delivery: the retry after 5 s arrives from the new process with the first webhook-id',
    { timeout: 60_000 },
    async () => {
      world.dns.list({});
      world.receiver.received.length = 0;
      world.receiver.answer(500);
      // One SQLite file for both processes; an interval long enough that only the test event is sent.
      const env = environment(1);
      try {
        const first = await startServerProcess(env);
        const watch = await createWatch(first.url, 3600);
        const queued = await fetch(`${first.url}/watch/v1/${watch.id}/test`, {
          method: 'POST',
          headers: { authorization: `Bearer ${watch.manage_key}` },
        });
        expect(queued.status).toBe(202);
        // The first attempt is answered 500: the delivery stays pending for its 5 s retry.
        await expect
          .poll(() => verifiedTypes(watch.webhook_secret), { timeout: 20_000, interval: 100 })
          .toEqual(['watch.test']);
        expect(await first.stop()).toBe(0);

        world.receiver.answer(204);
        const second = await startServerProcess(env);
        await expect
          .poll(() => verifiedTypes(watch.webhook_secret), { timeout: 30_000, interval: 200 })
          .toEqual(['watch.test', 'watch.test']);
        const [failed, retried] = world.receiver.received;
        expect(retried!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
        expect(retried!.body).toBe(failed!.body);
        expect(
          Number(retried!.headers['webhook-timestamp']) -
            Number(failed!.headers['webhook-timestamp']),
        ).toBeGreaterThanOrEqual(5);

        const view = await fetch(`${second.url}/watch/v1/${watch.id}`);
        expect(view.status).toBe(200);
        await expect
          .poll(
            async () =>
              (await readWatch(second.url, watch.id, watch.manage_key)).webhook?.last_delivery
                ?.outcome,
            {
              timeout: 10_000,
            },
          )
          .toBe('delivered');
        expect(await second.stop()).toBe(0);
      } finally {
        world.receiver.answer(204);
      }
    },
  );
});
