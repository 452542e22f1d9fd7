import type { Logger } from '../lib/index.js';
import type { Platform } from '../platform.js';

/**
 * The reports' retention on Node (docs/reports.md, "Retention"): once at start, then every day,
 * the reports received more than REPORTS_RETENTION_DAYS ago are forgotten with their numbers. The
 * timer is unref'd (it never keeps the process alive); `stop()` ends it, stops a purge under way
 * between two of its steps and waits for that, before the store closes. Several processes purging the same store do the same work
 * twice, harmlessly: a purge deletes what is older than a moment, and nothing else.
 */

export const purgeEveryMs = 86_400_000;

export interface PurgeTimer {
  stop(): Promise<void>;
}

export function startReportPurge(
  store: NonNullable<Platform['reports']>,
  options: { retentionDays: number; clock: () => Date; log: Logger; everyMs?: number },
): PurgeTimer {
  let running: Promise<void> | undefined;
  let stopped = false;
  // Ends a purge under way between two of its steps, so a stop never waits for a long one.
  const stopping = new AbortController();

  async function purge(): Promise<void> {
    const before = options.clock().getTime() - options.retentionDays * 86_400_000;
    try {
      const forgotten = await store.purge(before, stopping.signal);
      if (forgotten > 0) {
        options.log('info', 'reports purged', {
          forgotten,
          received_before: new Date(before).toISOString(),
        });
      }
    } catch (error) {
      // The next day's purge takes what this one could not.
      options.log('error', 'reports purge failed', { error: String(error) });
    }
  }

  const run = () => {
    if (stopped || running) return;
    running = purge().finally(() => {
      running = undefined;
    });
  };
  run();
  const timer = setInterval(run, options.everyMs ?? purgeEveryMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
