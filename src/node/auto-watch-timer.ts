import type { Logger } from '../lib/index.js';
import { type PollingTimer, startPollingTimer } from './polling-timer.js';

/**
 * What runs the reports' auto-watch on Node (docs/reports.md, "Reports meet watches"): a tick
 * every `idleMs` (1 s) runs the inboxes due (a few at a time, at once again while a tick finds
 * some), and at once when a PATCH, a DELETE or an e-mail link asks. With WORKERS=N every worker
 * ticks; the store's due queue gives each inbox's run to one of them.
 */

export interface AutoWatchTicker {
  tick(): Promise<number>;
  onWake(listener: () => void): void;
  settled(): Promise<void>;
}

export type AutoWatchTimer = PollingTimer;

export function startAutoWatchTimer(
  runner: AutoWatchTicker,
  options: { log: Logger; idleMs?: number },
): AutoWatchTimer {
  const idleMs = options.idleMs ?? 1000;
  return startPollingTimer(
    {
      pass: async () => (await runner.tick()) > 0,
      onWake: (listener) => runner.onWake(listener),
      settled: () => runner.settled(),
    },
    { log: options.log, name: 'auto_watch', delay: () => idleMs },
  );
}
