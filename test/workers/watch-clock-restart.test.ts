import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';
import { type Listings, dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { type FixtureDohServer, startFixtureDohServer } from '../../fixtures/doh-server.js';
import { type WebhookReceiver, startWebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { type WranglerDev, startWranglerDev } from './wrangler-dev.js';

/**
 * Watches go on after `wrangler dev` restarts (docs/watch-engine.md, "On Workers"; docs/edge.md,
 * "The build step"): the Worker run three times by `wrangler dev` on one `--persist-to` folder, as a
 * developer stops and starts it. The vitest pool for workerd cannot restart its runtime on the
 * same state, so this suite runs the real command, in Node, against fixture DNS behind DoH and a
 * webhook receiver on 127.0.0.1. The runs follow each other: the second and third go on with the
 * watch the first made.
 *
 * Each run is stopped while a re-check is under way (stopDuringACheck), as a stop often comes: the
 * watch's claim was taken and its check died with the runtime. The claim held the watch for the
 * rest of its lease, two minutes, so no run re-checked it before; the watch clock now keeps the
 * claims of the tick under way in its object's storage and makes them due again at its next
 * alarm (src/workers/watch-clock-object.ts).
 *
 * 1. Stopped with SIGTERM and started with the same variables, then a listing appears: the
 *    persisted alarm re-checks it with no request made, and neither start rebuilds the Worker.
 *    Its build step used to be wrangler.toml's `[build]` command, which wrangler ran again as it
 *    began watching src/ ("The file src changed, restarting build...").
 * 2. Killed and started with another DoH endpoint (another configuration, so another watch clock
 *    that no watch creation arms, and no Cron Trigger fires under `wrangler dev`): the first
 *    request the new isolate serves arms its clock. Two more faults stopped the watches there:
 *    the alarm ran the runner on a monitor replica that only requests read again (built while the
 *    restarted monitor's first self-test ran, it said "not tested yet" to every re-check for
 *    good), so each tick now reads the monitor's view first; and the old clock, failing at once
 *    through its held resolver, took every due claim, so a runner whose service is not
 *    configured now claims no watch.
 */

const target = '185.220.101.9';
/** The target as a DNSBL asks it (RFC 5782 §2.1). */
const reversed = '9.101.220.185';
/** The list that answers slowly while a run is stopped, and lists the target after. */
const slowList = 'bl.spamcop.net';
const otherList = 'psbl.surriel.com';
const operatorToken = 'operator-token-of-the-restart-test';
const rebuilt = /src changed|restarting build/i;

const zones = await loadZoneList();
let dns: FixtureDnsServer;
/** The DoH endpoint of the first two runs, and the one of the third (the first one stopped). */
let doh: FixtureDohServer;
let dohAgain: FixtureDohServer | undefined;
let receiver: WebhookReceiver;
let state: string;
/** Every run started, the last one still running until a test or afterAll stops it. */
const runs: WranglerDev[] = [];

beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones: dnsblWorld(zones, {}) });
  doh = await startFixtureDohServer({ dns });
  receiver = await startWebhookReceiver();
  state = mkdtempSync(join(tmpdir(), 'wrangler-state-'));
});
afterAll(async () => {
  await runs.at(-1)?.stop('killed');
  await Promise.all([receiver?.close(), doh?.close(), dohAgain?.close()]);
  await dns?.close();
  if (state) rmSync(state, { recursive: true, force: true });
});

function varsFor(dohUrl: string): Record<string, string> {
  return {
    DOH_URL: dohUrl,
    // Long enough for the slow list (stopDuringACheck) to answer within it.
    DNS_TIMEOUT_MS: '2500',
    DNS_RETRIES: '0',
    CHECK_DEADLINE_MS: '3000',
    WATCH_MIN_INTERVAL_S: '1',
    // The receiver listens on loopback: allowed, as an operator would allow a private receiver,
    // to the watches the operator creates with its token (docs/watches.md).
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
    OPERATOR_TOKEN: operatorToken,
  };
}

async function start(dohUrl: string, readyWhen: 'answering' | 'listening'): Promise<WranglerDev> {
  const run = await startWranglerDev({ state, vars: varsFor(dohUrl), readyWhen });
  runs.push(run);
  return run;
}

/** What every run logged (their re-checks' outcomes, the resolver's hold), to tell why. */
function logs(): string {
  return runs.map((run, index) => `run ${index + 1}:\n${run.output()}`).join('\n');
}

interface Delivered {
  type: string;
  data: { watch: { id: string }; added: { zone: string }[] };
}

/** The event of the `index`th delivery, once it came, its signature verified with the secret. */
async function delivery(index: number, secret: string): Promise<Delivered> {
  try {
    await expect
      .poll(() => receiver.received.length, { timeout: 30_000, interval: 250 })
      .toBeGreaterThan(index);
  } catch (error) {
    console.log(logs());
    throw error;
  }
  const request = receiver.received[index]!;
  return new Webhook(secret).verify(request.body, request.headers) as Delivered;
}

/**
 * Stops a run while a re-check of the watch is under way, its claim taken (docs/watch-engine.md,
 * "Claims and leases"): one list of the world now answers in 2 s, longer than the watch's
 * interval, and the run is stopped as soon as a re-check has asked it about the target.
 */
async function stopDuringACheck(
  run: WranglerDev,
  how: 'terminated' | 'killed',
  listings: Listings,
) {
  const asked = dns.queries.length;
  dns.setZones(
    dnsblWorld(zones, listings).map((zone) =>
      zone.origin === slowList ? { ...zone, latencyMs: 2000 } : zone,
    ),
  );
  const askedAboutTarget = () =>
    dns.queries.slice(asked).some(({ name }) => name === `${reversed}.${slowList}`);
  await expect.poll(askedAboutTarget, { timeout: 10_000, interval: 20 }).toBe(true);
  await run.stop(how);
}

const json = { 'content-type': 'application/json' };
let watch: { id: string; webhook_secret: string } | undefined;

describe(
  'watches across wrangler dev restarts on one --persist-to folder',
  { timeout: 180_000 },
  () => {
    it('delivers a listing that appears after a SIGTERM during a check and a start with the same variables, with no request made, and neither start rebuilds the Worker', async () => {
      const first = await start(doh.url, 'answering');
      const created = await fetch(`${first.url}/watch/v1`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${operatorToken}` },
        body: JSON.stringify({ target, interval_s: 1, webhook_url: receiver.url('/hook') }),
      });
      expect(created.status, first.output()).toBe(201);
      watch = (await created.json()) as { id: string; webhook_secret: string };
      // Its clock runs: re-checked within seconds, while nothing has changed (no delivery).
      const checkedAt = async () =>
        (
          (await (await fetch(`${first.url}/watch/v1/${watch!.id}`)).json()) as {
            checked_at: string;
          }
        ).checked_at;
      const before = await checkedAt();
      await expect.poll(checkedAt, { timeout: 20_000, interval: 500 }).not.toBe(before);
      await stopDuringACheck(first, 'terminated', {});
      expect(first.leftBehind(), 'a process of wrangler dev outlived its SIGTERM').toBe(false);
      expect(receiver.received).toEqual([]);

      const second = await start(doh.url, 'listening');
      dns.setZones(dnsblWorld(zones, { [target]: { [slowList]: ['127.0.0.2'] } }));
      // Within seconds, not once the dead check's claim has run out (two minutes).
      expect(await delivery(0, watch.webhook_secret)).toMatchObject({
        type: 'watch.listed',
        data: { watch: { id: watch.id }, added: [{ zone: slowList }] },
      });
      expect(first.output()).not.toMatch(rebuilt);
      expect(second.output()).not.toMatch(rebuilt);
    });

    it('delivers a listing made while it was killed during a check, after a start through another DoH endpoint, once the new isolate serves a request', async () => {
      expect(watch, 'the watch the first test made').toBeDefined();
      await stopDuringACheck(runs.at(-1)!, 'killed', { [target]: { [slowList]: ['127.0.0.2'] } });
      // While it is stopped, the address is listed once more, and its DoH endpoint moves to
      // another port.
      dns.setZones(
        dnsblWorld(zones, { [target]: { [slowList]: ['127.0.0.2'], [otherList]: ['127.0.0.2'] } }),
      );
      await doh.close();
      dohAgain = await startFixtureDohServer({ dns });
      const third = await start(dohAgain.url, 'answering');
      // One request, of any kind, as anyone opening the API after a restart makes.
      expect((await fetch(`${third.url}/ip/v1/status`)).status).toBe(200);
      expect(await delivery(1, watch!.webhook_secret)).toMatchObject({
        type: 'watch.listed',
        data: { watch: { id: watch!.id }, added: [{ zone: otherList }] },
      });
      expect(third.output()).not.toMatch(rebuilt);
    });
  },
);
