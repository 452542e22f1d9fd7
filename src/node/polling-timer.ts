import type { Logger } from '../lib/index.js';

/**
 * One background loop on Node, shared by the watch runner and the reports' auto-watch: a pass
 * after `delay()`, at once again when a pass says there is more or work was queued meanwhile
 * (`onWake`). Passes do not overlap. A pass that throws (a store that is down) is logged once,
 * not at every pass, and its recovery once. The timer is unref'd (it never keeps the process
 * alive) and `stop()` ends it and waits for the pass and the work under way, before the stores
 * close.
 */

export interface PolledWork {
  /** One pass: `true` when more is waiting now (a full claim, inboxes run). */
  pass(): Promise<boolean>;
  /** New work was queued here. */
  onWake(listener: () => void): void;
  /** Resolves once the work the passes started has ended. */
  settled(): Promise<void>;
}

export interface PollingTimer {
  stop(): Promise<void>;
}

export function startPollingTimer(
  work: PolledWork,
  options: {
    log: Logger;
    /** Names the loop in its log lines: `watch runner`, `auto_watch`. */
    name: string;
    /** How long to wait before the next pass when nothing is waiting. */
    delay: () => number;
  },
): PollingTimer {
  let timer: NodeJS.Timeout | undefined;
  let passing: Promise<void> | undefined;
  let stopped = false;
  /** New work was queued while a pass was under way: pass again as soon as it ends. */
  let woken = false;
  let failing = false;

  function schedule(ms: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      passing = pass();
    }, ms);
    timer.unref();
  }

  async function pass(): Promise<void> {
    let more = false;
    woken = false;
    try {
      more = await work.pass();
      if (failing) options.log('info', `${options.name} claims again`);
      failing = false;
    } catch (error) {
      if (!failing) options.log('error', `${options.name} cannot claim`, { error: String(error) });
      failing = true;
    }
    if (!stopped) schedule(more || woken ? 0 : options.delay());
  }

  work.onWake(() => {
    woken = true;
    // Between passes: pass now. During one, the next starts when it ends.
    if (!stopped && timer !== undefined) schedule(0);
  });
  schedule(0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await passing;
      await work.settled();
    },
  };
}
