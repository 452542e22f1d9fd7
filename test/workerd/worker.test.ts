import {
  createExecutionContext,
  createScheduledController,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createDohTransport } from '../../src/dns/doh-transport.js';
import worker from '../../src/worker.js';
import type { WorkerEnv } from '../../src/workers/app.js';
import { variablesOf } from '../../src/workers/edge-apps.js';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import type { ReceivedWebhook } from '../../fixtures/webhook-receiver.js';
import { basePath, startWebhookReceiver, startWorld } from './support/service.js';

/**
 * Inside workerd: the DNS codec (dns-packet on nodejs_compat's Buffer) and the DoH transport over
 * the runtime's own fetch, and the Worker's entry point (src/worker.ts) as wrangler deploys it.
 */

const zones: FixtureZone[] = [
  {
    origin: 'example.org',
    ttl: 120,
    records: {
      'mail.example.org': {
        A: ['192.0.2.10'],
        TXT: ['v=spf1 ip4:192.0.2.10 -all'],
        MX: [{ exchange: 'mail.example.org', priority: 10 }],
      },
      'www.example.org': { CNAME: 'mail.example.org' },
    },
  },
  { origin: 'servfail.test', behaviour: 'servfail' },
];

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld({ zones });
});
afterAll(() => world.close());

/**
 * The Worker's line for a configuration it refuses, on its console (the operator's log): caught
 * here and checked, not printed on a passing run.
 */
function consoleErrors() {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  onTestFinished(() => logged.mockRestore());
  return () => logged.mock.calls.map((args) => args.map(String).join(' '));
}

describe('the DoH transport inside workerd', () => {
  it('runs in the Workers runtime, not in Node', () => {
    const runtime = globalThis as { navigator?: { userAgent?: string } };
    expect(runtime.navigator?.userAgent).toBe('Cloudflare-Workers');
  });

  it('resolves A, TXT and MX records, following a CNAME, with their TTL', async () => {
    const transport = createDohTransport({
      endpoints: [world.dohUrl],
      timeoutMs: 2000,
      retries: 0,
    });
    expect(await transport.query('www.example.org', 'A')).toEqual({
      status: 'answer',
      records: ['192.0.2.10'],
      ttl: 120,
    });
    expect(await transport.query('mail.example.org', 'TXT')).toMatchObject({
      records: ['v=spf1 ip4:192.0.2.10 -all'],
    });
    expect(await transport.query('mail.example.org', 'MX')).toMatchObject({
      records: [{ exchange: 'mail.example.org', priority: 10 }],
    });
  });

  it('reports nxdomain and servfail as on Node', async () => {
    const transport = createDohTransport({
      endpoints: [world.dohUrl],
      timeoutMs: 2000,
      retries: 0,
    });
    expect(await transport.query('nowhere.example.org', 'A')).toEqual({ status: 'nxdomain' });
    expect(await transport.query('a.servfail.test', 'A')).toEqual({ status: 'servfail' });
  });
});

describe('the Worker entry point', () => {
  /** The configurations a test called the Worker with: each arms its watch clock. */
  const called = new Map<string, Record<string, string>>();
  afterEach(async () => {
    for (const vars of called.values()) await stopWatchClock(vars);
    called.clear();
  });

  async function call(
    path: string,
    vars: Record<string, string>,
    init?: RequestInit,
    caller = '192.0.2.77',
  ) {
    called.set(JSON.stringify(vars), vars);
    const ctx = createExecutionContext();
    const request = new Request(`http://edge.test${path}`, init);
    request.headers.set('cf-connecting-ip', caller);
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

  /** Creates a watch through the Worker; its answer, once it is a 201. */
  async function createWatch(
    vars: Record<string, string>,
    body: Record<string, unknown>,
    caller?: string,
  ) {
    // With an OPERATOR_TOKEN, the operator's watch (which may reach WEBHOOK_ALLOW_NETWORKS).
    const operator: Record<string, string> = vars.OPERATOR_TOKEN
      ? { authorization: `Bearer ${vars.OPERATOR_TOKEN}` }
      : {};
    const created = await call(
      `${basePath}/watch/v1`,
      vars,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...operator },
        body: JSON.stringify(body),
      },
      caller,
    );
    expect(created.status).toBe(201);
    return (await created.json()) as { id: string; webhook_secret: string; manage_key: string };
  }

  /**
   * Stops the watch clock of a configuration (src/workers/watch-clock-object.ts) at the end of a
   * test. The tests' configurations share one store, so a clock left running with a closed DNS
   * world would claim the next test's due watches and fail their checks; a deployment has one.
   */
  async function stopWatchClock(vars: Record<string, string>) {
    const variables = variablesOf({ ...(env as unknown as WorkerEnv), ...vars });
    const clocks = (env as unknown as WorkerEnv).WATCH_CLOCK;
    const clock = clocks.get(clocks.idFromName(JSON.stringify(variables)));
    await runInDurableObject(clock, async (_object, state) => {
      await state.storage.deleteAlarm();
      await state.storage.deleteAll();
    });
  }

  it('serves the API under BASE_PATH, configured through the DoH endpoint of its vars', async () => {
    const vars = { DOH_URL: world.dohUrl, DAILY_LIMIT: '7' };
    const status = await call(`${basePath}/ip/v1/status`, vars);
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({
      configured: true,
      dailyLimit: 7,
      dailyRemaining: 7,
      captchaRequired: false,
    });
    const index = await call(basePath, vars);
    expect(index.status).toBe(200);
  });

  it('answers every request with a 503 naming the bad variable when its vars do not validate', async () => {
    const errors = consoleErrors();
    const response = await call(`${basePath}/ip/v1/status`, {
      DOH_URL: world.dohUrl,
      DAILY_LIMIT: 'lots',
    });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { code: string; error: string };
    expect(body.code).toBe('not_configured');
    expect(body.error).toMatch(/DAILY_LIMIT/);
    expect(body.error).not.toMatch(/lots/);
    expect(errors()).toContainEqual(
      expect.stringMatching(/^Error: invalid configuration: DAILY_LIMIT/),
    );
  });

  it('answers /healthz and /readyz at the root, and no /metrics: 404 as any unknown route', async () => {
    const vars = { DOH_URL: world.dohUrl };
    expect((await call('/healthz', vars)).status).toBe(200);
    const ready = await call('/readyz', vars);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, configured: true, store: 'up' });
    const metrics = await call('/metrics', vars);
    const unknown = await call('/nowhere', vars);
    expect(metrics.status).toBe(404);
    expect(await metrics.json()).toEqual(await unknown.json());
  });

  it('while its vars do not validate, answers /healthz 200 and /readyz 503 with the reason', async () => {
    const errors = consoleErrors();
    const vars = { DOH_URL: world.dohUrl, DAILY_LIMIT: 'lots' };
    const live = await call('/healthz', vars, { headers: { 'x-request-id': 'edge-trace-1' } });
    expect(live.status).toBe(200);
    expect(live.headers.get('x-request-id')).toBe('edge-trace-1');
    const ready = await call('/readyz', vars);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(await ready.json()).toEqual({
      ready: false,
      configured: false,
      store: 'unknown',
      reason: expect.stringMatching(/DAILY_LIMIT/),
    });
    expect(errors()).toContainEqual(
      expect.stringMatching(/^Error: invalid configuration: DAILY_LIMIT/),
    );
  });

  it('counts the caller on CF-Connecting-IP and reads no TRUST_PROXY or forwarded header', async () => {
    const caller = '192.0.2.78';
    const vars = { DOH_URL: world.dohUrl, DAILY_LIMIT: '7', TRUST_PROXY: '1' };
    const remaining = async (headers: Record<string, string> = {}) => {
      const status = await call(`${basePath}/ip/v1/status`, vars, { headers }, caller);
      return ((await status.json()) as { dailyRemaining: number }).dailyRemaining;
    };
    const checked = await call(
      `${basePath}/ip/v1`,
      vars,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' },
        body: JSON.stringify({ target: '8.8.4.4' }),
      },
      caller,
    );
    expect(checked.status).toBe(200);
    expect(await remaining()).toBe(6);
    expect(await remaining({ 'x-forwarded-for': '198.51.100.9' })).toBe(6);
    expect(
      await remaining({ forwarded: 'for=198.51.100.10', 'x-forwarded-for': '198.51.100.10' }),
    ).toBe(6);
  });

  it("arms the configuration's watch clock on the first request the isolate serves, so watches made before it go on", async () => {
    // A configuration this isolate has not served yet, as after a restart or a deploy.
    const vars = { DOH_URL: world.dohUrl, WATCH_MIN_INTERVAL_S: '2' };
    expect((await call(`${basePath}/ip/v1/status`, vars)).status).toBe(200);
    const variables = variablesOf({ ...(env as unknown as WorkerEnv), ...vars });
    const clocks = (env as unknown as WorkerEnv).WATCH_CLOCK;
    const clock = clocks.get(clocks.idFromName(JSON.stringify(variables)));
    const stored = await runInDurableObject(clock, (_object, state) =>
      state.storage.get('variables'),
    );
    expect(stored).toEqual(variables);
    // Its alarm runs (at once) and sets itself again for the next poll.
    await expect
      .poll(() => runInDurableObject(clock, (_object, state) => state.storage.getAlarm()), {
        timeout: 5_000,
        interval: 100,
      })
      .toEqual(expect.any(Number));
  });

  it('re-checks a due watch on its Cron Trigger (scheduled), and one not due yet stays as it was', async () => {
    const lists = await startWorld({ listings: {} });
    const vars = { DOH_URL: lists.dohUrl, WATCH_MIN_INTERVAL_S: '1' };
    try {
      const create = async (interval: number) =>
        (await createWatch(vars, { target: '185.220.101.5', interval_s: interval })).id;
      const due = await create(1);
      const later = await create(3600);
      const checkedAt = async (id: string) =>
        ((await (await call(`${basePath}/watch/v1/${id}`, vars)).json()) as { checked_at: string })
          .checked_at;
      const [dueFirst, laterFirst] = [await checkedAt(due), await checkedAt(later)];
      await expect
        .poll(
          async () => {
            await scheduled(vars);
            return checkedAt(due);
          },
          { timeout: 15_000, interval: 250 },
        )
        .not.toBe(dueFirst);
      expect(await checkedAt(later)).toBe(laterFirst);
    } finally {
      await stopWatchClock(vars);
      await lists.close();
    }
  });

  it('re-checks a due watch on the watch clock alarm, which its creation armed, with no Cron Trigger', async () => {
    const lists = await startWorld({ listings: {} });
    const vars = { DOH_URL: lists.dohUrl, WATCH_MIN_INTERVAL_S: '1' };
    try {
      const { id } = await createWatch(
        vars,
        { target: '185.220.101.7', interval_s: 1 },
        '192.0.2.80',
      );
      const checkedAt = async () =>
        ((await (await call(`${basePath}/watch/v1/${id}`, vars)).json()) as { checked_at: string })
          .checked_at;
      const first = await checkedAt();
      // Nothing calls scheduled(): the alarm fires by itself, as under `wrangler dev`.
      await expect.poll(checkedAt, { timeout: 15_000, interval: 250 }).not.toBe(first);
      const second = await checkedAt();
      await expect.poll(checkedAt, { timeout: 15_000, interval: 250 }).not.toBe(second);
    } finally {
      await stopWatchClock(vars);
      await lists.close();
    }
  });

  it('runs the watch clock alarm while a request checks, each on DNS of its own I/O context', async () => {
    // Every query takes a while, so the alarm's re-check and the request's check are on the wire
    // together and wait for the same few slots (docs/edge.md, "One DNS stack per I/O owner").
    const lists = await startWorld({ listings: {}, latencyMs: 80 });
    const vars = {
      DOH_URL: lists.dohUrl,
      WATCH_MIN_INTERVAL_S: '1',
      DNS_TIMEOUT_MS: '5000',
      CHECK_DEADLINE_MS: '15000',
    };
    try {
      const { id } = await createWatch(
        vars,
        { target: '185.220.101.8', interval_s: 1 },
        '192.0.2.81',
      );
      const watchOf = async () =>
        (await (await call(`${basePath}/watch/v1/${id}`, vars)).json()) as { checked_at: string };
      const first = (await watchOf()).checked_at;
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const clocks = (env as unknown as WorkerEnv).WATCH_CLOCK;
      const variables = variablesOf({ ...(env as unknown as WorkerEnv), ...vars });
      const clock = clocks.get(clocks.idFromName(JSON.stringify(variables)));
      const check = (target: string, caller: string) =>
        call(
          `${basePath}/ip/v1`,
          vars,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ target }),
          },
          caller,
        );
      const [checked] = await Promise.all([
        check('185.220.101.9', '192.0.2.82'),
        runDurableObjectAlarm(clock),
      ]);
      expect(checked.status).toBe(200);
      const { ip_score: score } = (await checked.json()) as {
        ip_score: { lists: { zone: string; status: string }[] };
      };
      expect(score.lists.filter((list) => ['error', 'timeout'].includes(list.status))).toEqual([]);
      await expect
        .poll(async () => (await watchOf()).checked_at, { timeout: 15_000, interval: 250 })
        .not.toBe(first);
      // A second watch with the same settings, while the clock goes on ticking.
      const [second] = await Promise.all([
        createWatch(vars, { target: '185.220.101.10', interval_s: 1 }, '192.0.2.83'),
        runDurableObjectAlarm(clock),
      ]);
      expect(second.id).toEqual(expect.any(String));
    } finally {
      await stopWatchClock(vars);
      await lists.close();
    }
  }, 40_000);

  it('signs a watch.listed delivery when the address is listed and a watch.delisted one when it is delisted, each verified with the watch secret', async () => {
    const target = '185.220.101.6';
    const lists = await startWorld({ listings: {} });
    const receiver = await startWebhookReceiver();
    // The receiver listens on 127.0.0.1 in the Node side of the pool: allowed to the operator's
    // watches, as an operator would allow a private receiver (docs/watches.md, "Safety").
    const vars = {
      DOH_URL: lists.dohUrl,
      WATCH_MIN_INTERVAL_S: '1',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: 'operator-token-of-the-tests',
    };
    try {
      const { id, webhook_secret: secret } = await createWatch(
        vars,
        { target, interval_s: 1, webhook_url: receiver.url },
        '192.0.2.79',
      );
      const verifier = new Webhook(secret);
      /** The run of the trigger, then the events the receiver holds, each checked as a receiver checks it. */
      const deliveredAfterTrigger = async () => {
        await scheduled(vars);
        return (await receiver.received()).map(
          (request: ReceivedWebhook) =>
            verifier.verify(request.body, request.headers) as {
              type: string;
              data: {
                watch: { id: string };
                added: { zone: string }[];
                removed: { zone: string }[];
              };
            },
        );
      };
      const poll = { timeout: 15_000, interval: 250 };

      await lists.setWorld({ listings: { [target]: { 'bl.spamcop.net': ['127.0.0.2'] } } });
      await expect.poll(deliveredAfterTrigger, poll).toHaveLength(1);
      const [listed] = await deliveredAfterTrigger();
      expect(listed).toMatchObject({
        type: 'watch.listed',
        data: { watch: { id }, added: [{ zone: 'bl.spamcop.net' }], removed: [] },
      });

      await lists.setWorld({ listings: {} });
      await expect.poll(deliveredAfterTrigger, poll).toHaveLength(2);
      const [, delisted] = await deliveredAfterTrigger();
      expect(delisted).toMatchObject({
        type: 'watch.delisted',
        data: { watch: { id }, added: [], removed: [{ zone: 'bl.spamcop.net' }] },
      });
    } finally {
      await stopWatchClock(vars);
      await receiver.close();
      await lists.close();
    }
  });

  it('answers a second /test while the first waits for its answer with 429 test_pending and Retry-After, on the Durable Object store and the Workers sender', async () => {
    const lists = await startWorld({ listings: {} });
    const receiver = await startWebhookReceiver();
    // The receiver never answers: the test's first attempt ends with WEBHOOK_TIMEOUT_MS.
    await receiver.answer('hang');
    const vars = {
      DOH_URL: lists.dohUrl,
      WATCH_MIN_INTERVAL_S: '60',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: 'operator-token-of-the-tests',
      WEBHOOK_TIMEOUT_MS: '3000',
    };
    try {
      const { id, manage_key: key } = await createWatch(
        vars,
        { target: '185.220.101.11', interval_s: 3600, webhook_url: receiver.url },
        '192.0.2.84',
      );
      const test = () =>
        call(`${basePath}/watch/v1/${id}/test`, vars, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
        });
      expect((await test()).status).toBe(202);
      for (const refused of await Promise.all([test(), test()])) {
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('3');
        expect(await refused.json()).toMatchObject({ code: 'test_pending' });
      }
      // The watch clock's alarm attempts it, the attempt times out, and a test is taken again.
      const poll = { timeout: 12_000, interval: 250 };
      await expect.poll(async () => (await receiver.received()).length, poll).toBe(1);
      await expect.poll(async () => (await test()).status, poll).toBe(202);
    } finally {
      await stopWatchClock(vars);
      await receiver.close();
      await lists.close();
    }
  }, 40_000);

  it('answers /test on a watch its owner paused with 400 invalid_request, and sends nothing', async () => {
    const lists = await startWorld({ listings: {} });
    const receiver = await startWebhookReceiver();
    const vars = {
      DOH_URL: lists.dohUrl,
      WATCH_MIN_INTERVAL_S: '60',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: 'operator-token-of-the-tests',
    };
    try {
      const { id, manage_key: key } = await createWatch(
        vars,
        { target: '185.220.101.12', interval_s: 3600, webhook_url: receiver.url },
        '192.0.2.85',
      );
      const asOwner = (method: string, path: string, body?: unknown) =>
        call(`${basePath}/watch/v1/${id}${path}`, vars, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      expect((await asOwner('PATCH', '', { paused: true })).status).toBe(200);
      const refused = await asOwner('POST', '/test');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'invalid_request' });
      // A run of the runner, as the clock's alarm or the Cron Trigger makes: still nothing sent.
      await scheduled(vars);
      expect(await receiver.received()).toEqual([]);
    } finally {
      await stopWatchClock(vars);
      await receiver.close();
      await lists.close();
    }
  });

  it('drops the oldest pending deliveries of a watch past WATCH_PENDING_DELIVERIES, and retries the rest', async () => {
    const lists = await startWorld({ listings: {} });
    const receiver = await startWebhookReceiver();
    const vars = {
      DOH_URL: lists.dohUrl,
      WATCH_MIN_INTERVAL_S: '60',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: 'operator-token-of-the-tests',
      WATCH_PENDING_DELIVERIES: '2',
    };
    try {
      const { id, manage_key: key } = await createWatch(
        vars,
        { target: '185.220.101.13', interval_s: 3600, webhook_url: receiver.url },
        '192.0.2.86',
      );
      const test = async () =>
        (
          await call(`${basePath}/watch/v1/${id}/test`, vars, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}` },
          })
        ).status;
      const webhookIds = async () =>
        (await receiver.received()).map((request) => request.headers['webhook-id']);
      const poll = { timeout: 10_000, interval: 100 };
      await receiver.answer(500);
      // Four tests, each failing once and waiting 5 s for its retry (docs/watches.md, "Deliveries").
      for (let sent = 1; sent <= 4; sent++) {
        await expect.poll(test, poll).toBe(202);
        await expect
          .poll(async () => {
            await scheduled(vars);
            return (await webhookIds()).length;
          }, poll)
          .toBe(sent);
      }
      const ids = await webhookIds();
      expect(new Set(ids).size).toBe(4);
      await receiver.answer(204);
      // The first two were dropped when the third and the fourth were queued: only those retry.
      await expect
        .poll(
          async () => {
            await scheduled(vars);
            return (await webhookIds()).length;
          },
          { timeout: 15_000, interval: 250 },
        )
        .toBe(6);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await scheduled(vars);
      const retried = (await webhookIds()).slice(4);
      expect(retried.sort()).toEqual(ids.slice(2).sort());
    } finally {
      await stopWatchClock(vars);
      await receiver.close();
      await lists.close();
    }
  }, 40_000);

  it('counts the callers of one /24 together, and keeps WEBHOOK_ALLOW_NETWORKS and other ports from anyone without OPERATOR_TOKEN', async () => {
    const lists = await startWorld({ listings: {} });
    const vars = {
      DOH_URL: lists.dohUrl,
      WATCH_PER_CALLER: '1',
      WATCH_PER_NETWORK: '1',
      WEBHOOK_ALLOW_NETWORKS: '10.0.0.0/8',
      OPERATOR_TOKEN: 'operator-token-of-the-tests',
    };
    const post = (body: Record<string, unknown>, caller: string) =>
      call(
        `${basePath}/watch/v1`,
        vars,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ target: '185.220.101.8', interval_s: 3600, ...body }),
        },
        caller,
      );
    try {
      // One creation that checks: every refusal below comes before any look-up.
      expect((await post({}, '203.0.113.21')).status).toBe(201);
      const full = await post({}, '203.0.113.22');
      expect(full.status).toBe(429);
      expect(await full.json()).toMatchObject({ code: 'watch_limit' });
      for (const webhook of [
        'http://10.1.2.3:8080/hook',
        'http://8.8.8.8:22/',
        'http://localhost../',
      ]) {
        const refused = await post({ webhook_url: webhook }, '203.0.114.21');
        expect(refused.status).toBe(400);
        expect(await refused.json()).toMatchObject({ code: 'invalid_webhook' });
      }
    } finally {
      await stopWatchClock(vars);
      await lists.close();
    }
  });

  it('refuses to start without a DoH endpoint', async () => {
    const errors = consoleErrors();
    const response = await call(`${basePath}/ip/v1/status`, { DOH_URL: '' });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: expect.stringMatching(/DOH_URL: required on Workers/),
    });
    expect(errors()).toContainEqual(expect.stringMatching(/DOH_URL: required on Workers/));
  });
});
