import type { Logger } from '../lib/index.js';

/**
 * What runs the reports' auto-watch on Node (docs/reports.md, "Reports meet watches"): a tick
 * every `idleMs` (1 s) runs the inboxes due (a few at a time, at once again while a tick finds
 * some), and at once when a PATCH, a DELETE or an e-mail link asks. With WORKERS=N every worker
 * ticks; the store's due queue gives each inbox's run to one of them. The timer is unref'd, and
 * `stop()` ends it and waits for the run under way, before the stores close.
 */

export interface AutoWatchTicker {
  tick(): Promise<number>;
  onWake(listener: () => void): void;
  settled(): Promise<void>;
}

export interface AutoWatchTimer {
  stop(): Promise<void>;
}

export function startAutoWatchTimer(
  runner: AutoWatchTicker,
  options: { log: Logger; idleMs?: number },
): AutoWatchTimer {
  const idleMs = options.idleMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let stopped = false;
  let woken = false;
  let failing = false;

  function schedule(ms: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      ticking = tick();
    }, ms);
    timer.unref();
  }

  async function tick(): Promise<void> {
    let ran = 0;
    woken = false;
    try {
      ran = await runner.tick();
      failing = false;
    } catch (error) {
      // A store that is down is logged once, not every second.
      if (!failing) options.log('error', 'auto_watch cannot claim', { error: String(error) });
      failing = true;
    }
    if (!stopped) schedule(ran > 0 || woken ? 0 : idleMs);
  }

  runner.onWake(() => {
    woken = true;
    if (!stopped && timer !== undefined) schedule(0);
  });
  schedule(0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      await runner.settled();
    },
  };
}
