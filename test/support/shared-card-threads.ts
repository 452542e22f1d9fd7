import { createLogger } from '../../src/lib/index.js';
import { type CardPool, createCardPool } from '../../src/node/cards/index.js';

/**
 * The card threads a test worker process shares. The services the route suites build
 * (test/support/service.ts) with the default card settings draw their cards here, in the Node
 * adapter's own pool and worker threads, instead of in a pool of their own: a fresh pool's first
 * card waits for its thread to load the renderer (satori, resvg, the fonts), and that load was
 * paid again by every test that drew a card (docs/decisions.md, "The test run"). A suite that sets
 * CARD_RENDER_THREADS or CARD_RENDER_QUEUE, whose bounds are what it tests, keeps a pool of its
 * own. The threads end with the worker process.
 */

let shared: CardPool | undefined;

/** The shared pool, with the default settings (`threads` and `queue` as readConfig gives them). */
export function sharedCardThreads(settings: { threads: number; queue: number }): CardPool {
  // A thread that ends or fails says so on stderr, where a failing test's output shows it.
  shared ??= createCardPool({
    ...settings,
    log: createLogger('warn', (line) => process.stderr.write(`${line}\n`)),
  });
  return shared;
}
