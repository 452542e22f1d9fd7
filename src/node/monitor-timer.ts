import type { ZoneMonitor } from '../reputation/index.js';

/**
 * What drives the zone monitor on Node (docs/edge.md): one timer at a time, armed for the
 * monitor's `wakeAt()` (its next self-test run, or the next probe of a list on hold) and moved
 * sooner whenever the monitor says its work did; each firing runs `tick()` and arms again. The
 * timer is unref'd, so it never keeps the process alive. On Workers the monitor's Durable Object
 * alarm does the same (src/workers/monitor-object.ts).
 */

export interface MonitorTimer {
  stop(): void;
}

export function startMonitorTimer(
  monitor: Pick<ZoneMonitor, 'wakeAt' | 'tick' | 'onScheduleChange'>,
  now: () => number = Date.now,
): MonitorTimer {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires; undefined while none is armed (or its tick is under way). */
  let armedAt: number | undefined;

  function arm(): void {
    if (stopped) return;
    const at = monitor.wakeAt();
    if (armedAt !== undefined && armedAt <= at) return;
    clearTimeout(timer);
    armedAt = at;
    timer = setTimeout(
      () => {
        armedAt = undefined;
        timer = undefined;
        void monitor
          .tick()
          .catch(() => undefined)
          .finally(arm);
      },
      Math.max(0, at - now()),
    );
    timer.unref();
  }

  monitor.onScheduleChange(arm);
  arm();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      armedAt = undefined;
    },
  };
}
