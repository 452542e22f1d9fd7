import type { Logger } from '../lib/index.js';
import type { WatchRunner } from '../watch/index.js';

/**
 * What drives the watch runner on Node (docs/watch-engine.md, "Runner"): a claim every `idleMs`
 * (250 ms), sooner when this process knows work falls due before then, at once when the last claim
 * was full or new work was queued here. Claims do not wait for the work they start, so a slow
 * webhook receiver never delays a due check. The timer is unref'd (it never keeps the process
 * alive) and `stop()` ends it and waits for the work under way, before the store closes.
 */

export interface WatchTimer {
  stop(): Promise<void>;
}

export function startWatchTimer(
  runner: WatchRunner,
  options: { clock: () => Date; log: Logger; idleMs?: number },
): WatchTimer {
  const idleMs = options.idleMs ?? 250;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  let stopped = false;
  /** New work was queued while a claim was under way: claim again as soon as it ends. */
  let woken = false;
  /** Whether the last claim failed: a store that is down is logged once, not four times a second. */
  let failing = false;

  function schedule(ms: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      polling = poll();
    }, ms);
    timer.unref();
  }

  function untilNext(): number {
    const now = options.clock().getTime();
    const next = runner.nextDueAt(now);
    return next === undefined ? idleMs : Math.min(idleMs, Math.max(0, next - now));
  }

  async function poll(): Promise<void> {
    let full = false;
    woken = false;
    try {
      full = (await runner.start()).full;
      if (failing) options.log('info', 'watch runner claims again');
      failing = false;
    } catch (error) {
      if (!failing) options.log('error', 'watch runner cannot claim', { error: String(error) });
      failing = true;
    }
    if (!stopped) schedule(full || woken ? 0 : untilNext());
  }

  runner.onWake(() => {
    woken = true;
    // Between claims: claim now. During one, the next starts when it ends.
    if (!stopped && timer !== undefined) schedule(0);
  });
  schedule(0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await polling;
      await runner.settled();
    },
  };
}
