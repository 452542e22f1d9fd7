import { type ServiceOptions, createServices } from '../services.js';
import type { NodeConfig } from './config.js';
import { type NodePlatform, createNodePlatform } from './platform.js';
import { startWatchTimer } from './watch-timer.js';

/**
 * The services of the Node server: the core's (src/services.ts) over the Node platform, plus what
 * only Node has, the card threads and the timer that runs the watches, and one `close()` for a
 * graceful stop. `platform` is the one the configuration opens unless given (the tests give one
 * whose DNS is answered in memory).
 */
export async function createNodeServices(
  config: NodeConfig,
  logSink: (line: string) => void,
  options: ServiceOptions = {},
  given?: NodePlatform,
) {
  const platform = given ?? (await createNodePlatform(config, logSink));
  try {
    const services = await createServices(config, platform, options);
    const watchTimer = startWatchTimer(services.watches.runner, {
      clock: platform.clock,
      log: services.log,
    });
    return {
      ...services,
      cardPool: platform.cardPool,
      /** Draws a card on every thread, so the first share of a fresh process is not the slow one. */
      warmUpCards: () => platform.cardPool.warmUp(),
      /** Ends the watch timer and waits for the checks and deliveries under way. */
      stopWatches: () => watchTimer.stop(),
      /**
       * Stops the self-test and watch timers, the card threads and the DNS sockets, then lets go
       * of the store.
       */
      async close() {
        services.stopMonitor();
        await watchTimer.stop();
        platform.closeDns();
        await platform.cardPool.close();
        await platform.store.close();
      },
    };
  } catch (error) {
    platform.closeDns();
    await platform.cardPool.close();
    await platform.store.close();
    throw error;
  }
}

export type NodeServices = Awaited<ReturnType<typeof createNodeServices>>;
