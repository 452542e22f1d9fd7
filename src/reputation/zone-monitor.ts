import type { Resolver } from '../dns/index.js';
import { type SelfTestRun, selfTestZones } from './self-test.js';
import type { DnsblZone } from './zones.js';

/**
 * Keeps the self-test verdicts between runs: which zones are disabled, and whether the resolver
 * answered the last run (the service's health probe). Runs at start and on an interval.
 */
export interface ZoneMonitor {
  disabledReason(zone: DnsblZone): string | undefined;
  /** False until a run has heard any answer from the resolver. */
  readonly resolverHealthy: boolean;
  run(): Promise<SelfTestRun>;
  /**
   * Re-runs every `intervalMs` until `stop()`, and every 30 s at most while the resolver has not
   * answered, so a service started before its DNS server recovers by itself. The timer never
   * keeps the process alive.
   */
  start(intervalMs: number): void;
  stop(): void;
}

const unhealthyRetryMs = 30_000;

export function createZoneMonitor(options: {
  resolver: Resolver;
  zones: readonly DnsblZone[];
  spamhausDqsKey?: string;
  onRun?: (run: SelfTestRun) => void;
}): ZoneMonitor {
  const disabled = new Map<string, string>();
  let resolverHealthy = false;
  let timer: NodeJS.Timeout | undefined;

  async function run(): Promise<SelfTestRun> {
    const result = await selfTestZones(options.resolver, options.zones, options.spamhausDqsKey);
    for (const verdict of result.verdicts) {
      if (verdict.state === 'passed') disabled.delete(verdict.zone);
      if (verdict.state === 'failed') disabled.set(verdict.zone, verdict.reason);
    }
    resolverHealthy = result.resolverAnswered;
    options.onRun?.(result);
    return result;
  }

  return {
    disabledReason: (zone) => disabled.get(zone.zone),
    get resolverHealthy() {
      return resolverHealthy;
    },
    run,
    start(intervalMs) {
      const schedule = () => {
        timer = setTimeout(
          () => void run().finally(schedule),
          resolverHealthy ? intervalMs : Math.min(intervalMs, unhealthyRetryMs),
        );
        timer.unref();
      };
      schedule();
    },
    stop: () => clearTimeout(timer),
  };
}
