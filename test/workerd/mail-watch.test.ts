import {
  createExecutionContext,
  createScheduledController,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import worker from '../../src/worker.js';
import type { WorkerEnv } from '../../src/workers/app.js';
import { variablesOf } from '../../src/workers/edge-apps.js';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import type { ReceivedWebhook } from '../../fixtures/webhook-receiver.js';
import { basePath, startWebhookReceiver, startWorld } from './support/service.js';

/**
 * A mail watch inside workerd (docs/watches.md, "Mail watches"): the Worker cannot open TCP port
 * 25, so every check's SMTP is `not_probed`, which must never read as a change; the DNS parts
 * are checked over DoH as on Node, and a DKIM key record removed from the fixture world is
 * delivered as a signed `watch.changed` naming the selector, re-checked on the Cron Trigger.
 */

const domain = 'edge-watched.net';
const keyName = `google._domainkey.${domain}`;
const zones = (withKey: boolean): FixtureZone[] => [
  {
    origin: 'net',
    records: {
      [domain]: { TXT: ['v=spf1 -all'], MX: [{ exchange: `mx.${domain}`, priority: 10 }] },
      // A public address: only the runtime keeps the probe from it.
      [`mx.${domain}`]: { A: ['185.50.0.25'] },
      [`_dmarc.${domain}`]: { TXT: ['v=DMARC1; p=reject'] },
      ...(withKey
        ? {
            [keyName]: {
              TXT: ['v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='],
            },
          }
        : {}),
    },
  },
];

async function call(path: string, vars: Record<string, string>, init?: RequestInit) {
  const ctx = createExecutionContext();
  const request = new Request(`http://edge.test${path}`, init);
  request.headers.set('cf-connecting-ip', '192.0.2.91');
  const response = await worker.fetch(
    request as Parameters<typeof worker.fetch>[0],
    { ...(env as unknown as WorkerEnv), ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** One run of the Cron Trigger, as Cloudflare calls it once a minute (wrangler.toml). */
async function scheduled(vars: Record<string, string>) {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: Date.now(), cron: '* * * * *' }),
    { ...(env as unknown as WorkerEnv), ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** Stops the configuration's watch clock, so no later suite's watches are claimed by it. */
async function stopWatchClock(vars: Record<string, string>) {
  const variables = variablesOf({ ...(env as unknown as WorkerEnv), ...vars });
  const clocks = (env as unknown as WorkerEnv).WATCH_CLOCK;
  const clock = clocks.get(clocks.idFromName(JSON.stringify(variables)));
  await runInDurableObject(clock, async (_object, state) => {
    await state.storage.deleteAlarm();
    await state.storage.deleteAll();
  });
}

interface MailEvent {
  type: string;
  data: { watch: { id: string; kind: string }; changes?: Record<string, unknown>[] };
}

describe('a mail watch on Workers', () => {
  it('reports nothing while SMTP is not_probed, and a DKIM key removed as a signed watch.changed', async () => {
    const world = await startWorld({ zones: zones(true) });
    const receiver = await startWebhookReceiver();
    const vars = {
      DOH_URL: world.dohUrl,
      WATCH_MIN_INTERVAL_S: '1',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: 'operator-token-of-the-mail-watch-tests',
      // Its world holds no blocklist: the zone monitor logs at error that none can be proven (the
      // mail watch checks without them), which a passing run need not print.
      LOG_LEVEL: 'silent',
    };
    try {
      const created = await call(`${basePath}/watch/v1`, vars, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${vars.OPERATOR_TOKEN}`,
        },
        body: JSON.stringify({
          target: domain,
          kind: 'mail',
          interval_s: 1,
          confirmations: 1,
          webhook_url: receiver.url,
        }),
      });
      expect(created.status).toBe(201);
      const watch = (await created.json()) as {
        id: string;
        webhook_secret: string;
        status: { mail: { dkim_selectors: string[] } };
      };
      expect(watch.status.mail.dkim_selectors).toEqual(['google']);
      const checkedAt = async () =>
        (
          (await (await call(`${basePath}/watch/v1/${watch.id}`, vars)).json()) as {
            checked_at: string;
          }
        ).checked_at;

      // Three re-checks with SMTP not probed each time: no change.
      const seen = new Set([await checkedAt()]);
      await expect
        .poll(
          async () => {
            await scheduled(vars);
            seen.add(await checkedAt());
            return seen.size;
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBeGreaterThan(3);
      expect(await receiver.received()).toEqual([]);

      await world.setZones(zones(false));
      const verifier = new Webhook(watch.webhook_secret);
      const delivered = async () => {
        await scheduled(vars);
        return (await receiver.received()).map(
          (request: ReceivedWebhook) => verifier.verify(request.body, request.headers) as MailEvent,
        );
      };
      await expect.poll(delivered, { timeout: 20_000, interval: 500 }).toHaveLength(1);
      const [event] = await delivered();
      expect(event).toMatchObject({
        type: 'watch.changed',
        data: { watch: { id: watch.id, kind: 'mail' } },
      });
      expect(event!.data.changes).toContainEqual({
        what: 'dkim',
        subject: 'google',
        from: 'found',
        to: 'none',
        detail: null,
      });
    } finally {
      await stopWatchClock(vars);
      await receiver.close();
      await world.close();
    }
  }, 60_000);
});
