import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MonitorTimer, startMonitorTimer } from '../../../src/node/monitor-timer.js';
import { createZoneMonitor } from '../../../src/reputation/lists/zone-monitor.js';
import { type DnsblZone, loadZoneList } from '../../../src/reputation/lists/zones.js';
import { dnsblWorld, dropsRealLookups } from '../../../fixtures/dnsbl-world.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';

/**
 * The zone monitor over the fixture DNS world, in memory (its point is what it makes of answers,
 * not the wire): which lists may be believed, when the service is configured and why not, holds
 * and their probe, and the per-check confirmation.
 */

const zones = await loadZoneList();
const zoneNamed = (name: string): DnsblZone => zones.find((zone) => zone.zone === name)!;
const spamcop = zoneNamed('bl.spamcop.net');
const senderScore = zoneNamed('score.senderscore.com');

let dns: MemoryDns;
/** The resolver the service names in its reasons (its DNS_SERVERS). */
const resolverName = 'DNS_SERVERS 127.0.0.1:53';
/** The timers of the tests that run the monitor as the Node server does (src/node/monitor-timer.ts). */
const timers: MonitorTimer[] = [];

beforeAll(async () => {
  dns = memoryWorld(dnsblWorld(zones, {}));
});
afterEach(() => {
  for (const timer of timers.splice(0)) timer.stop();
  dns.setZones(dnsblWorld(zones, {}));
});
afterAll(() => dns.close());

function monitorOf(options: Partial<Parameters<typeof createZoneMonitor>[0]> = {}) {
  const monitor = createZoneMonitor({
    // A second, not 150 ms: on a busy machine a short timeout turns a slow answer into a failed proof.
    resolver: memoryResolver(dns, 1000),
    zones,
    intervalMs: 60_000,
    resolverName,
    ...options,
  });
  return monitor;
}

/** Every zone served (IPv6 zones of their own too), but every name NXDOMAIN: the world behind a resolver that lies so. */
const nxdomainWorld = () => dnsblWorld(zones, {}).map((zone) => ({ origin: zone.origin }));

describe('the zone monitor', () => {
  it('is not configured before its first run, and configured once lists prove themselves', async () => {
    const monitor = monitorOf();
    expect(monitor.readiness().configured).toBe(false);
    expect(monitor.gate(spamcop)).toMatchObject({ state: 'disabled' });
    await monitor.run();
    expect(monitor.readiness()).toEqual({ configured: true });
    expect(monitor.gate(spamcop)).toEqual({ state: 'active' });
    expect(monitor.gate(senderScore)).toEqual({ state: 'active' });
  });

  it('disables a list that fails, keeps it disabled while its test gets no answer, re-enables it once it passes', async () => {
    const monitor = monitorOf();
    dns.setZones(
      dnsblWorld(zones, {}).map((zone) =>
        zone.origin === 'bl.spamcop.net' ? { ...zone, wildcard: { A: ['127.0.0.2'] } } : zone,
      ),
    );
    await monitor.run();
    expect(monitor.gate(spamcop)).toEqual({
      state: 'disabled',
      reason: expect.stringMatching(/answers everything/),
    });
    dns.setZones(
      dnsblWorld(zones, {}).map((zone) =>
        zone.origin === 'bl.spamcop.net' ? { ...zone, behaviour: 'servfail' as const } : zone,
      ),
    );
    await monitor.run();
    expect(monitor.gate(spamcop)).toMatchObject({ state: 'disabled' });
    dns.setZones(dnsblWorld(zones, {}));
    await monitor.run();
    expect(monitor.gate(spamcop)).toEqual({ state: 'active' });
  });

  it('says what to change when the resolver answers NXDOMAIN to everything from the start', async () => {
    dns.setZones(nxdomainWorld());
    const monitor = monitorOf();
    await monitor.run();
    const readiness = monitor.readiness();
    expect(readiness.configured).toBe(false);
    expect(readiness.reason).toContain(resolverName);
    expect(readiness.reason).toContain('answers NXDOMAIN even for the blocklists');
    expect(readiness.reason).toContain('unbound');
    expect(readiness.reason).toContain('SPAMHAUS_DQS_KEY');
    // Not even a list without a test entry of its own is believed: nothing proves the resolver.
    expect(monitor.gate(senderScore)).toEqual({
      state: 'disabled',
      reason: expect.stringContaining('no other list has proven the resolver honest'),
    });
    expect(monitor.lists().every((list) => list.state === 'disabled')).toBe(true);
  });

  it('catches a resolver that turns to NXDOMAIN after start at the next check, before the next run', async () => {
    let lies = 0;
    const changes: unknown[] = [];
    const monitor = monitorOf({
      onLie: () => lies++,
      onReadiness: (readiness) => changes.push(readiness),
    });
    await monitor.run();
    expect(await monitor.confirm().settle(1000)).toBe('honest');
    expect(monitor.epoch).toBe(0);

    dns.setZones(nxdomainWorld());
    expect(await monitor.confirm().settle(1000)).toBe('lying');
    // Until the run it started has finished, the reason is the confirmation's own.
    expect(monitor.readiness()).toEqual({
      configured: false,
      reason: expect.stringMatching(/stopped answering honestly|answers NXDOMAIN even/),
    });
    expect(monitor.epoch).toBe(1);
    expect(lies).toBe(1);
    // The run the confirmation started says what is wrong, and what to change.
    await monitor.run();
    expect(monitor.readiness()).toEqual({
      configured: false,
      reason: expect.stringContaining('answers NXDOMAIN even for the blocklists'),
    });
    expect(changes).toHaveLength(2);

    dns.setZones(dnsblWorld(zones, {}));
    await monitor.run();
    expect(monitor.readiness()).toEqual({ configured: true });
  });

  it('catches a resolver that turns to NXDOMAIN within one interval when no check comes', async () => {
    const monitor = monitorOf({ intervalMs: 150 });
    await monitor.run();
    timers.push(startMonitorTimer(monitor));
    dns.setZones(nxdomainWorld());
    const started = performance.now();
    await expect
      .poll(() => monitor.readiness().configured, { timeout: 2000, interval: 20 })
      .toBe(false);
    // One interval and the run's round trips: the fixture answers at once.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(monitor.epoch).toBe(1);
  });

  it('puts a list on hold after three look-ups in a row without an answer, and a probe brings it back', async () => {
    const monitor = monitorOf({ holdProbeMs: 50 });
    await monitor.run();
    timers.push(startMonitorTimer(monitor));
    dns.setZones(
      dnsblWorld(zones, {}).map((zone) =>
        zone.origin === 'bl.spamcop.net' ? { ...zone, behaviour: 'drop' as const } : zone,
      ),
    );
    monitor.recordLookup(spamcop, 'timeout');
    monitor.recordLookup(spamcop, 'nxdomain');
    monitor.recordLookup(spamcop, 'timeout');
    monitor.recordLookup(spamcop, 'timeout');
    expect(monitor.gate(spamcop)).toEqual({ state: 'active' });
    monitor.recordLookup(spamcop, 'timeout');
    expect(monitor.gate(spamcop)).toEqual({
      state: 'on_hold',
      reason: expect.stringMatching(/^on hold since .+: 3 look-ups in a row got no answer/),
    });
    // Still silent: the probes keep it on hold.
    await expect
      .poll(() => monitor.lists().find((list) => list.zone === 'bl.spamcop.net'), {
        timeout: 3000,
        interval: 20,
      })
      .toMatchObject({ state: 'on_hold', last_self_test_result: 'inconclusive' });
    expect(monitor.gate(spamcop).state).toBe('on_hold');

    dns.setZones(dnsblWorld(zones, {}));
    await expect
      .poll(() => monitor.gate(spamcop).state, { timeout: 2000, interval: 20 })
      .toBe('active');
  });

  it('lets a proof grow old: a list whose re-tests get no answer for two intervals is no longer believed', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const monitor = monitorOf({ intervalMs: 10_000, now: () => now });
    await monitor.run();
    expect(monitor.gate(spamcop).state).toBe('active');
    dns.setZones(
      dnsblWorld(zones, {}).map((zone) =>
        zone.origin === 'bl.spamcop.net' ? { ...zone, behaviour: 'servfail' as const } : zone,
      ),
    );
    now += 10_000;
    await monitor.run();
    expect(monitor.gate(spamcop).state).toBe('active');
    now += 2 * 10_000 + 60_000;
    await monitor.run();
    expect(monitor.gate(spamcop)).toEqual({
      state: 'disabled',
      reason: expect.stringMatching(
        /^not proven since 2026-01-01T00:00:00.000Z: .*SERVFAIL|servfail/,
      ),
    });
  });

  it('shows every list with its state, reason, test entry and traffic', async () => {
    const monitor = monitorOf();
    await monitor.run();
    const lists = monitor.lists();
    expect(lists).toHaveLength(zones.length);
    const zen = zoneNamed('zen.spamhaus.org');
    expect(lists.find((list) => list.zone === 'zen.spamhaus.org')).toEqual({
      zone: 'zen.spamhaus.org',
      name: 'Spamhaus ZEN',
      type: 'ip',
      severity: 'major',
      allowlist: false,
      key: null,
      lists: zen.lists,
      policy: zen.policy,
      source: zen.source,
      lookup_url: 'https://check.spamhaus.org/listed/?searchterm={target}',
      delist_url: 'https://check.spamhaus.org/',
      state: 'active',
      reason: expect.stringContaining('answers honestly'),
      test_entry: '127.0.0.2',
      last_self_test: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      last_self_test_result: 'passed',
      answers_last_hour: 0,
      timeouts_last_hour: 0,
      latency_ms: { p50: null, p95: null },
      ipv6: {
        zone: 'zen.spamhaus.org',
        name: 'Spamhaus ZEN',
        source: expect.stringMatching(/^https:\/\/www\.spamhaus\.org\//),
        state: 'active',
        reason: expect.stringContaining('answers honestly'),
        test_entry: '::ffff:7f00:2',
        last_self_test: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        last_self_test_result: 'passed',
        answers_last_hour: 0,
        timeouts_last_hour: 0,
        latency_ms: { p50: null, p95: null },
      },
    });
    expect(lists.find((list) => list.zone === 'bl.spameatingmonkey.net')?.ipv6).toMatchObject({
      zone: 'bl.ipv6.spameatingmonkey.net',
      name: 'Spam Eating Monkey SEM-IPV6BL',
      state: 'active',
    });
    expect(lists.find((list) => list.zone === 'rep.mailspike.net')).toMatchObject({
      test_entry: null,
      reason: expect.stringContaining('documents no test entry'),
      ipv6: null,
    });
  });

  it("keeps a list's IPv6 side apart: disabled when its IPv6 test entry is missing, the IPv4 side active", async () => {
    const monitor = monitorOf();
    const ipv6Entry =
      '2.0.0.0.0.0.f.7.f.f.f.f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.zen.spamhaus.org';
    dns.setZones(
      dnsblWorld(zones, {}).map((zone) =>
        zone.origin === 'zen.spamhaus.org'
          ? {
              ...zone,
              records: Object.fromEntries(
                Object.entries(zone.records ?? {}).filter(([name]) => name !== ipv6Entry),
              ),
            }
          : zone,
      ),
    );
    await monitor.run();
    const zen = zoneNamed('zen.spamhaus.org');
    expect(monitor.gate(zen)).toEqual({ state: 'active' });
    expect(monitor.gate(zen, 'ipv6')).toEqual({
      state: 'disabled',
      reason: 'self-test: test entry ::ffff:7f00:2 is not listed',
    });
    expect(monitor.readiness()).toEqual({ configured: true });
  });

  it("puts a list's IPv6 side on hold after IPv6 look-ups time out, and leaves its IPv4 side asked", async () => {
    const monitor = monitorOf();
    await monitor.run();
    const zen = zoneNamed('zen.spamhaus.org');
    for (let i = 0; i < 3; i++) monitor.recordLookup(zen, 'timeout', 'ipv6');
    expect(monitor.gate(zen, 'ipv6')).toMatchObject({ state: 'on_hold' });
    expect(monitor.gate(zen)).toEqual({ state: 'active' });
  });

  it('keeps a list on hold while its test entries answer but real look-ups do not, until a real look-up is answered', async () => {
    const monitor = monitorOf({ holdProbeMs: 50 });
    await monitor.run();
    timers.push(startMonitorTimer(monitor));
    dns.setZones(dropsRealLookups(dnsblWorld(zones, {}), spamcop));
    for (let i = 0; i < 3; i++) monitor.recordLookup(spamcop, 'timeout');
    expect(monitor.gate(spamcop)).toMatchObject({ state: 'on_hold' });

    // Probes come and go: each passes the self-test, none brings the list back (each real
    // look-up waits the resolver's whole second before it counts as unanswered).
    const probesAsked = () =>
      dns.queries.filter(
        (query) =>
          query.name.endsWith('.bl.spamcop.net') &&
          !/^(selftest-|[12]\.0\.0\.127\.)/.test(query.name),
      ).length;
    const before = probesAsked();
    await expect
      .poll(() => probesAsked() - before, { timeout: 8000, interval: 20 })
      .toBeGreaterThanOrEqual(3);
    expect(monitor.lists().find((list) => list.zone === 'bl.spamcop.net')).toMatchObject({
      state: 'on_hold',
      last_self_test_result: 'passed',
      reason: expect.stringContaining('until it answers a real look-up again'),
    });
    // Nor does a full run whose self-test it passes.
    await monitor.run();
    expect(monitor.gate(spamcop).state).toBe('on_hold');

    dns.setZones(dnsblWorld(zones, {}));
    await expect
      .poll(() => monitor.gate(spamcop).state, { timeout: 5000, interval: 20 })
      .toBe('active');
  }, 20_000);

  it('disables a keyed list without its key, naming the variable, and never asks it', async () => {
    const abusix = zoneNamed('combined.mail.abusix.zone');
    const monitor = monitorOf();
    const before = dns.queries.length;
    await monitor.run();
    expect(monitor.gate(abusix)).toEqual({
      state: 'disabled',
      reason: expect.stringContaining('set ABUSIX_KEY to ask it'),
    });
    expect(monitor.lists().find((list) => list.zone === abusix.zone)).toMatchObject({
      state: 'disabled',
      key: 'ABUSIX_KEY',
      reason: expect.stringContaining('ABUSIX_KEY'),
      last_self_test: null,
      ipv6: { state: 'disabled', reason: expect.stringContaining('ABUSIX_KEY') },
    });
    const asked = dns.queries.slice(before).map((query) => query.name);
    expect(asked.filter((name) => name.endsWith('abusix.zone'))).toEqual([]);
  });

  it('asks a keyed list with its key in front of its zone once the key is set, and proves it', async () => {
    const abusix = zoneNamed('combined.mail.abusix.zone');
    const key = 'abusixk3y';
    dns.setZones([
      ...dnsblWorld(zones, {}),
      ...dnsblWorld([{ ...abusix, zone: `${key}.${abusix.zone}` }], {}),
    ]);
    const monitor = monitorOf({ keys: { ABUSIX_KEY: key } });
    await monitor.run();
    expect(monitor.gate(abusix)).toEqual({ state: 'active' });
    expect(JSON.stringify(monitor.lists())).not.toContain(key);
  });

  it("times an active list's look-ups by its own p95 once enough answers were measured", async () => {
    let traffic = { answers: 5, timeouts: 0, p50: 10, p95: 20 };
    const monitor = monitorOf({
      maxTimeoutMs: 1500,
      stats: { traffic: () => traffic },
    });
    await monitor.run();
    expect(monitor.gate(spamcop)).toEqual({ state: 'active' });
    for (const [p95, timeoutMs] of [
      [20, 150],
      [100, 400],
      [1000, 1500],
    ] as const) {
      traffic = { answers: 40, timeouts: 0, p50: 10, p95 };
      // States are worked out at most once a second, and again after a run.
      await monitor.run();
      expect(monitor.gate(spamcop)).toEqual({ state: 'active', timeoutMs });
    }
  });
});
