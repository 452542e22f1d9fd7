import type { Config } from '../config/index.js';
import type { MonitorRemote } from '../reputation/index.js';
import type { MonitorSettings, ZoneMonitorObject } from './monitor-object.js';

/**
 * How an isolate's replica reaches the Worker's zone monitor: RPC to the Durable Object named
 * after the monitor's settings, which travel with every call (the object has no `env` vars of
 * its own to read them from, and a new configuration gets a monitor of its own).
 */
export function monitorRemote(
  namespace: DurableObjectNamespace<ZoneMonitorObject>,
  config: Config,
): MonitorRemote {
  const settings = monitorSettings(config);
  const monitor = () => namespace.get(namespace.idFromName(monitorName(settings)));
  return {
    view: () => monitor().view(settings),
    report: (report) => monitor().report(settings, report),
    suspect: (reason) => monitor().suspect(settings, reason),
  };
}

/** What the monitor runs with, from the Worker's configuration. */
export function monitorSettings(config: Config): MonitorSettings {
  return {
    dohUrls: config.dns.dohUrls,
    timeoutMs: config.dns.timeoutMs,
    retries: config.dns.retries,
    keys: config.listKeys,
    intervalMs: config.selfTestIntervalMs,
    logLevel: config.logLevel,
  };
}

/** The Durable Object of the monitor with these settings. */
export function monitorName(settings: MonitorSettings): string {
  return `monitor ${JSON.stringify(settings)}`;
}
