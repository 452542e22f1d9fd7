import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { readWorkerConfig } from '../../src/workers/config.js';
import { monitorName, monitorSettings } from '../../src/workers/monitor-remote.js';
import type { WorkerBindings } from '../../src/workers/platform.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import type { IpCheckAnswer, ListsAnswer, QuotaStatus } from '../support/responses.js';
import { type TestService, startTestService } from './support/service.js';

/**
 * The zone monitor on Workers: one Durable Object runs every list's self-test on its alarm, and
 * every isolate answers from its verdicts through a replica (docs/edge.md). Spamhaus refuses
 * public resolvers, DoH ones included: without SPAMHAUS_DQS_KEY its lists are disabled, and the
 * list health says why.
 */

const { ZONE_MONITOR } = env as unknown as WorkerBindings;
const zones = await loadZoneList();
const spamhausLists = ['zen.spamhaus.org', 'dbl.spamhaus.org'];
/** Lists asked only under a key the test does not give: shown disabled, never asked. */
const keyedLists = zones.filter((zone) => zone.key !== undefined).map((zone) => zone.zone);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function listsOf(service: TestService): Promise<ListsAnswer> {
  return (await (await service.get('/lists')).json()) as ListsAnswer;
}

async function started(options: Parameters<typeof startTestService>[0]): Promise<TestService> {
  const service = await startTestService(options);
  onTestFinished(() => service.close());
  return service;
}

/** The monitor's Durable Object for the service's DoH endpoint and the test defaults. */
function monitorOf(dohUrl: string, vars: Record<string, string> = {}) {
  const config = readWorkerConfig({
    DOH_URL: dohUrl,
    DNS_TIMEOUT_MS: '1000',
    DNS_RETRIES: '0',
    CHECK_DEADLINE_MS: '3000',
    LOG_LEVEL: 'info',
    ...vars,
  });
  return ZONE_MONITOR.get(ZONE_MONITOR.idFromName(monitorName(monitorSettings(config))));
}

describe('Spamhaus at the edge', () => {
  it('disables the Spamhaus lists without SPAMHAUS_DQS_KEY, saying why, and checks on the other lists', async () => {
    const service = await started({
      spamhaus: 'public-resolver',
      listings: { '185.220.101.5': { 'bl.spamcop.net': ['127.0.0.2'] } },
    });
    const body = await listsOf(service);
    expect(body.configured).toBe(true);
    for (const zone of spamhausLists) {
      expect(body.lists.find((list) => list.zone === zone)).toMatchObject({
        state: 'disabled',
        reason: expect.stringMatching(/127\.255\.255\.254|public\/open resolver/),
      });
      expect(body.lists.find((list) => list.zone === zone)?.reason).toContain('SPAMHAUS_DQS_KEY');
    }
    const others = body.lists.filter(
      (list) => !spamhausLists.includes(list.zone) && !keyedLists.includes(list.zone),
    );
    expect(others.filter((list) => list.state !== 'active')).toEqual([]);

    const check = (await (
      await service.post('/ip/v1', { target: '185.220.101.5' })
    ).json()) as IpCheckAnswer;
    expect(check.ip_score.lists.find((list) => list.zone === 'zen.spamhaus.org')).toMatchObject({
      status: 'disabled',
    });
    expect(check.ip_score.listed).toBe(1);
  });

  it('asks Spamhaus through its Data Query Service with SPAMHAUS_DQS_KEY, and believes it', async () => {
    const key = 'edgekey0123456789abcdefghij';
    const service = await started({
      spamhaus: { dqsKey: key },
      env: { SPAMHAUS_DQS_KEY: key },
    });
    const body = await listsOf(service);
    for (const zone of spamhausLists) {
      expect(body.lists.find((list) => list.zone === zone)).toMatchObject({ state: 'active' });
    }
    const asked = (await service.dnsQueries()).map((query) => query.name);
    expect(asked).toContain(`2.0.0.127.${key}.zen.dq.spamhaus.net`);
    // The key never reaches a caller.
    expect(JSON.stringify(body)).not.toContain(key);
  });
});

describe('one monitor for every isolate', () => {
  // Silent: the monitor logs on the console, at error, the lie it catches and the world that
  // closes under it, as it should; a passing run need not print them.
  const quiet = { LOG_LEVEL: 'silent' };

  it('answers every replica from the same verdicts: a lie one check catches stops the others too', async () => {
    const first = await started({ env: quiet });
    // A second app on the same configuration: another isolate's replica of the same monitor.
    const second = await startTestService({
      env: { ...quiet, DOH_URL: first.world!.dohUrl },
      deadDns: true,
    });
    onTestFinished(() => second.close());
    expect((await (await second.get('/ip/v1/status')).json()) as object).toMatchObject({
      configured: true,
    });
    // The resolver turns: every name, documented test entries included, is NXDOMAIN now (the
    // IPv6 sides' own zones too).
    await first.setZones(dnsblWorld(zones, {}).map(({ origin }) => ({ origin })));
    const caught = await first.post('/ip/v1', { target: '8.8.4.4' });
    expect(caught.status).toBe(503);
    expect(await caught.json()).toMatchObject({ code: 'not_configured' });
    // The other isolate reads the monitor's view again within a second, and stops as well.
    await sleep(1100);
    const status = (await (await second.get('/ip/v1/status')).json()) as QuotaStatus;
    expect(status.configured).toBe(false);
    expect(status.reason).toEqual(expect.any(String));
    await first.setZones(dnsblWorld(zones, {}));
  });

  it('keeps the self-test on its alarm, and runs it again when woken after eviction', async () => {
    const service = await started({ env: quiet });
    const monitor = monitorOf(service.world!.dohUrl, quiet);
    const before = await listsOf(service);
    const alarm = await runInDurableObject(monitor, (_instance, state) => state.storage.getAlarm());
    // The next full run: SELFTEST_INTERVAL_S (1800 s by default) after the first.
    expect(alarm).toBeGreaterThan(Date.now() + 1_700_000);
    // Evicted, the object keeps its storage only; its alarm wakes it and it runs a fresh self-test.
    await abortAllDurableObjects();
    // A stub of an aborted object is broken for good: a new one reaches the object woken afresh.
    expect(await runDurableObjectAlarm(monitorOf(service.world!.dohUrl, quiet))).toBe(true);
    // The same settings as the first service's (its level too): the same monitor.
    const fresh = await startTestService({
      env: { ...quiet, DOH_URL: service.world!.dohUrl },
      deadDns: true,
    });
    onTestFinished(() => fresh.close());
    const after = await listsOf(fresh);
    const tested = (body: ListsAnswer) => body.lists.find((list) => list.zone === 'bl.spamcop.net');
    expect(Date.parse(tested(after)!.last_self_test!)).toBeGreaterThan(
      Date.parse(tested(before)!.last_self_test!),
    );
    expect(after.configured).toBe(true);
  });
});
