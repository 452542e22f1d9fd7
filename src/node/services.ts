import { type ServiceOptions, createServices } from '../services.js';
import type { NodeConfig } from './config.js';
import { createNodePlatform } from './platform.js';

/**
 * The services of the Node server: the core's (src/services.ts) over the Node platform, plus what
 * only Node has, the card threads, and one `close()` for a graceful stop.
 */
export async function createNodeServices(
  config: NodeConfig,
  logSink: (line: string) => void,
  options: ServiceOptions = {},
) {
  const platform = await createNodePlatform(config, logSink);
  try {
    const services = await createServices(config, platform, options);
    return {
      ...services,
      cardPool: platform.cardPool,
      /** Draws a card on every thread, so the first share of a fresh process is not the slow one. */
      warmUpCards: () => platform.cardPool.warmUp(),
      /** Stops the self-test timer, the card threads and the DNS sockets, then lets go of the store. */
      async close() {
        services.stopMonitor();
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
