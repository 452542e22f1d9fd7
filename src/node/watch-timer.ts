import type { Logger } from '../lib/index.js';
import type { WatchRunner } from '../watch/index.js';
import { type PollingTimer, startPollingTimer } from './polling-timer.js';

/**
 * What drives the watch runner on Node (docs/watch-engine.md, "Runner"): a claim every `idleMs`
 * (250 ms), sooner when this process knows work falls due before then, at once when the last claim
 * was full or new work was queued here. Claims do not wait for the work they start, so a slow
 * webhook receiver never delays a due check.
 */

export type WatchTimer = PollingTimer;

export function startWatchTimer(
  runner: WatchRunner,
  options: { clock: () => Date; log: Logger; idleMs?: number },
): WatchTimer {
  const idleMs = options.idleMs ?? 250;
  return startPollingTimer(
    {
      pass: async () => (await runner.start()).full,
      onWake: (listener) => runner.onWake(listener),
      settled: () => runner.settled(),
    },
    {
      log: options.log,
      name: 'watch runner',
      delay() {
        const now = options.clock().getTime();
        const next = runner.nextDueAt(now);
        return next === undefined ? idleMs : Math.min(idleMs, Math.max(0, next - now));
      },
    },
  );
}
