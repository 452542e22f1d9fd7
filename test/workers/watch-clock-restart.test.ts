import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { type FixtureDohServer, startFixtureDohServer } from '../../fixtures/doh-server.js';
import { freePort } from '../../fixtures/free-port.js';
import { type WebhookReceiver, startWebhookReceiver } from '../../fixtures/webhook-receiver.js';

/**
 * Watches go on after `wrangler dev` restarts (docs/watch-engine.md, "On Workers"): the Worker run
 * twice by `wrangler dev` on one `--persist-to` folder, as a developer stops and starts it. The
 * vitest pool for workerd cannot restart its runtime on the same state, so this suite runs the
 * real command, in Node, against fixture DNS behind DoH and a webhook receiver on 127.0.0.1.
 *
 * Two faults stopped the watches. The clock is one Durable Object per configuration: restarted
 * with any other variable (here the DoH endpoint, as `npm run demo:doh` restarted on another
 * port), the new configuration's clock was never armed, the old one checks through the old
 * endpoint, and no Cron Trigger fires under `wrangler dev`; the first request an isolate serves
 * now arms its clock. And the alarm ran the runner on a monitor replica that only requests read
 * again: built while the restarted monitor's first self-test ran, it said "not tested yet" to
 * every re-check for good (half the runs); each tick now reads the monitor's view first. Then the
 * old clock, failing at once through its held resolver, took every due claim on time and the new
 * one found nothing due: a runner whose service is not configured now claims no watch.
 * Restarted with the same variables, the persisted alarm fires again by itself (tried after
 * Ctrl-C and after a kill).
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
const basePath = '/tools/ip-reputation';
const target = '185.220.101.9';

const zones = await loadZoneList();
let dns: FixtureDnsServer;
/** The DoH endpoint of the first run, and the one of the second (the first one stopped). */
let doh: FixtureDohServer;
let dohAgain: FixtureDohServer | undefined;
let receiver: WebhookReceiver;
let state: string;

beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones: dnsblWorld(zones, {}) });
  doh = await startFixtureDohServer({ dns });
  receiver = await startWebhookReceiver();
  state = mkdtempSync(join(tmpdir(), 'wrangler-state-'));
});
afterAll(async () => {
  await Promise.all([receiver?.close(), doh?.close(), dohAgain?.close()]);
  await dns?.close();
  if (state) rmSync(state, { recursive: true, force: true });
});

interface Dev {
  url: string;
  output: () => string;
  /** Stops it as Ctrl-C does, or (`killed`) ends wrangler and workerd at once, as a crash. */
  stop(how?: 'interrupted' | 'killed'): Promise<void>;
}

const operatorToken = 'operator-token-of-the-restart-test';

/** `wrangler dev` on the shared state folder, offline, once it answers. */
async function startDev(dohUrl: string): Promise<Dev> {
  const [port, inspector] = [await freePort(), await freePort()];
  const vars = {
    DOH_URL: dohUrl,
    DNS_TIMEOUT_MS: '1000',
    DNS_RETRIES: '0',
    CHECK_DEADLINE_MS: '3000',
    WATCH_MIN_INTERVAL_S: '1',
    // The receiver listens on loopback: allowed, as an operator would allow a private receiver,
    // to the watches the operator creates with its token (docs/watches.md).
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
    OPERATOR_TOKEN: operatorToken,
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [
      wrangler,
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      state,
      ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        // Offline: no Request.cf sample from Cloudflare, no update check (docs/edge.md).
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        WRANGLER_SEND_METRICS: 'false',
        CI: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own: wrangler and its workerd end together.
      detached: true,
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}${basePath}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited: ${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`wrangler dev did not answer in 60 s: ${output}`);
    }
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    output: () => output,
    async stop(how = 'interrupted') {
      const group = (signal: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // Already gone.
        }
      };
      group(how === 'killed' ? 'SIGKILL' : 'SIGINT');
      const killer = setTimeout(() => group('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      group('SIGKILL');
    },
  };
}

const json = { 'content-type': 'application/json' };

describe('the watch clock across a wrangler dev restart', { timeout: 180_000 }, () => {
  it('delivers a listing to a watch made before the restart, once the new isolate serves a request', async () => {
    const first = await startDev(doh.url);
    let id: string;
    try {
      const created = await fetch(`${first.url}/watch/v1`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${operatorToken}` },
        body: JSON.stringify({ target, interval_s: 1, webhook_url: receiver.url('/hook') }),
      });
      expect(created.status, first.output()).toBe(201);
      ({ id } = (await created.json()) as { id: string });
      // Its clock runs: re-checked within seconds, while nothing has changed (no delivery).
      const checkedAt = async () =>
        ((await (await fetch(`${first.url}/watch/v1/${id}`)).json()) as { checked_at: string })
          .checked_at;
      const before = await checkedAt();
      await expect.poll(checkedAt, { timeout: 20_000, interval: 500 }).not.toBe(before);
    } finally {
      await first.stop('killed');
    }
    expect(receiver.received).toEqual([]);

    // While it is stopped, the address is listed, and its DoH endpoint moves to another port.
    dns.setZones(dnsblWorld(zones, { [target]: { 'bl.spamcop.net': ['127.0.0.2'] } }));
    await doh.close();
    dohAgain = await startFixtureDohServer({ dns });
    const second = await startDev(dohAgain.url);
    try {
      // One request, of any kind, as anyone opening the API after a restart makes.
      expect((await fetch(`${second.url}/ip/v1/status`)).status).toBe(200);
      try {
        await expect
          .poll(() => receiver.received.length, { timeout: 60_000, interval: 500 })
          .toBeGreaterThan(0);
      } catch (error) {
        // What both runs logged (their re-checks' outcomes, the resolver's hold), to tell why.
        console.log(`first run:\n${first.output()}\nsecond run:\n${second.output()}`);
        throw error;
      }
      const [delivery] = receiver.received;
      expect(JSON.parse(delivery!.body)).toMatchObject({
        type: 'watch.listed',
        data: { watch: { id }, added: [{ zone: 'bl.spamcop.net' }] },
      });
    } finally {
      await second.stop();
    }
  });
});
