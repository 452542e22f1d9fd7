import { DurableObject } from 'cloudflare:workers';
import { createDohTransport, withObserver, withResolverStack } from '../dns/index.js';
import { createLogger, type LogLevel } from '../lib/index.js';
import {
  bundledZoneList,
  createListStats,
  createZoneMonitor,
  type ListKeys,
  type MonitorReport,
  type MonitorView,
  type ZoneMonitor,
} from '../reputation/index.js';
import { logReadiness, logRun, logUnreachable, queryNames } from '../services.js';
import { edgeMaxInFlight } from './limits.js';

/**
 * The one zone monitor of a Worker (docs/edge.md): the self-test of every list and the verdicts
 * that follow, kept in a Durable Object so that every isolate answers from the same verdicts, and
 * run on the object's alarm instead of a timer (isolates keep no timers between requests). Each
 * isolate holds a replica (src/reputation/lists/monitor-replica.ts) that reads `view()` at most once a
 * second, reports what checks saw, and tells the object when a check caught the resolver lying.
 *
 * The settings come with every call, from the isolate's configuration: the object is named after
 * them (src/workers/monitor-remote.ts), so a Worker whose DOH_URL changes gets a new monitor.
 * What the monitor knows lives in memory: an object woken after eviction runs a full self-test
 * before it answers. Its verdict epoch (the result cache's key) is kept in storage and goes on from
 * there, as a Node process's does within its life: results cached before stay served until a lie
 * is caught or a list comes back.
 */

export interface MonitorSettings {
  dohUrls: string[];
  timeoutMs: number;
  retries: number;
  /** The list keys configured (SPAMHAUS_DQS_KEY, ABUSIX_KEY). */
  keys: ListKeys;
  intervalMs: number;
  holdProbeMs?: number;
  logLevel: LogLevel;
}

const zonesByName = () => new Map(bundledZoneList().map((zone) => [zone.zone, zone]));

export class ZoneMonitorObject extends DurableObject<unknown> {
  private monitor: ZoneMonitor | undefined;
  private stats: ReturnType<typeof createListStats> | undefined;
  private starting: Promise<ZoneMonitor> | undefined;
  private settingsKey: string | undefined;
  /** The epoch the current monitor started from, and the last one stored. */
  private epochBase = 0;
  private storedEpoch = 0;
  private readonly zones = zonesByName();

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.storedEpoch = (await ctx.storage.get<number>('epoch')) ?? 0;
      this.epochBase = this.storedEpoch;
    });
  }

  /** The verdicts now; the first call after the object started waits for its first self-test. */
  async view(settings: MonitorSettings): Promise<MonitorView> {
    const monitor = await this.monitorFor(settings);
    const view = monitor.view();
    return { ...view, epoch: await this.saveEpoch() };
  }

  /** What checks in an isolate saw: look-ups for the hold rule, queries for GET /lists. */
  async report(settings: MonitorSettings, report: MonitorReport): Promise<void> {
    const monitor = await this.monitorFor(settings);
    for (const { zone, side, status } of report.lookups) {
      const known = this.zones.get(zone);
      if (known) monitor.recordLookup(known, status, side);
    }
    for (const { name, type, status, ms } of report.observations) {
      this.stats?.observe(name, type, status, ms);
    }
  }

  /** A check in an isolate caught the resolver answering a documented test entry falsely. */
  async suspect(settings: MonitorSettings, reason: string): Promise<void> {
    (await this.monitorFor(settings)).suspect(reason);
    await this.saveEpoch();
  }

  /** Runs what is due (a full self-test, or a probe of the lists on hold) and sets the next alarm. */
  override async alarm(): Promise<void> {
    const settings = await this.ctx.storage.get<MonitorSettings>('settings');
    if (!settings) return;
    const monitor = await this.monitorFor(settings);
    await monitor.tick();
    await this.saveEpoch();
    await this.arm();
  }

  /** The epoch now, kept in storage whenever it moved. */
  private async saveEpoch(): Promise<number> {
    const epoch = this.epochBase + (this.monitor?.epoch ?? 0);
    if (epoch !== this.storedEpoch) {
      this.storedEpoch = epoch;
      await this.ctx.storage.put('epoch', epoch);
    }
    return epoch;
  }

  private async monitorFor(settings: MonitorSettings): Promise<ZoneMonitor> {
    const key = JSON.stringify(settings);
    if (this.monitor && this.settingsKey === key) return this.monitor;
    if (this.starting && this.settingsKey === key) return this.starting;
    // A monitor for new settings counts on from where this one got.
    this.epochBase += this.monitor?.epoch ?? 0;
    this.monitor = undefined;
    this.settingsKey = key;
    this.starting = this.start(settings).finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(settings: MonitorSettings): Promise<ZoneMonitor> {
    await this.ctx.storage.put('settings', settings);
    const log = createLogger(settings.logLevel, (line) => console.log(line));
    const zones = bundledZoneList();
    const stats = createListStats(queryNames(zones, settings.keys));
    const transport = createDohTransport({
      endpoints: settings.dohUrls,
      timeoutMs: settings.timeoutMs,
      retries: settings.retries,
    });
    const resolver = withResolverStack(withObserver(transport, stats.observe, ['A']), {
      maxInFlight: edgeMaxInFlight,
      onUnreachable: (report) => logUnreachable(log, report),
    });
    const description = 'the one DOH_URL names';
    const monitor = createZoneMonitor({
      resolver,
      zones,
      keys: settings.keys,
      intervalMs: settings.intervalMs,
      maxTimeoutMs: settings.timeoutMs,
      ...(settings.holdProbeMs ? { holdProbeMs: settings.holdProbeMs } : {}),
      resolverName: description,
      resolverSetting: 'DOH_URL',
      stats,
      onLie: () => resolver.clear(),
      onRun: (run) => logRun(log, run.verdicts),
      onReadiness: (readiness) => logReadiness(log, readiness, settings.dohUrls),
    });
    // Work that moves sooner (a list goes on hold, a run ends) moves the alarm with it.
    monitor.onScheduleChange(() => void this.arm());
    await monitor.run();
    logReadiness(log, monitor.readiness(), settings.dohUrls, { atStart: true });
    this.stats = stats;
    this.monitor = monitor;
    await this.arm();
    return monitor;
  }

  /** The alarm goes off when the monitor next has work, or sooner if it already would. */
  private async arm(): Promise<void> {
    if (!this.monitor) return;
    const at = this.monitor.wakeAt();
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(Math.max(at, Date.now()));
  }
}
