import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../lib/index.js';
import { aggregateWorkerMetrics } from './cluster-metrics.js';
import { isStartupFailureMessage } from './startup-failure.js';

/**
 * WORKERS=N (N > 1): this process becomes the primary of a node:cluster. It forks N workers, each
 * running the whole service (src/server.ts again) on the one listening socket the primary holds
 * and hands connections from in turn; it serves nothing itself. Their shared state is the store,
 * which is why config.ts refuses WORKERS > 1 with STORE_URL=memory:.
 *
 * - A worker whose start fails (a taken port, a bad zone list) hands its one line to the primary
 *   (src/node/startup-failure.ts), which prints it once, stops the others and exits 1. One that
 *   dies before it listens without saying why stops the start the same way, with a log line.
 * - A worker that dies later is replaced after a second, so one crash does not halve the service.
 * - SIGTERM / SIGINT: each worker stops gracefully (its in-flight requests finish), then the
 *   primary exits 0; any worker still running after stopTimeoutMs is killed and the exit is 1.
 * - GET /metrics, whichever worker takes it, answers the sum of every listening worker's metrics,
 *   which the primary collects (src/node/cluster-metrics.ts).
 *
 * The returned promise never settles: the primary ends with process.exit.
 */

const respawnDelayMs = 1000;
const stopTimeoutMs = 15_000;

export function superviseWorkers(count: number, log: Logger): Promise<never> {
  // Our own books: node:cluster still lists a worker in cluster.workers while its `exit` runs.
  const running = new Set<Worker>();
  const listening = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;
  const fork = () => running.add(cluster.fork());

  cluster.on('listening', (worker) => listening.add(worker));
  aggregateWorkerMetrics(() => listening);
  // Every worker meets the same cause: the first to say it is the one printed.
  cluster.on('message', (_worker, message: unknown) => {
    if (stopping || !isStartupFailureMessage(message)) return;
    process.stderr.write(`${message.startupFailure}\n`);
    stop(1);
  });
  cluster.on('exit', (worker, code, signal) => {
    running.delete(worker);
    const listened = listening.delete(worker);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (running.size === 0) process.exit(exitCode);
      return;
    }
    if (!listened) {
      log('error', 'a worker stopped before listening: stopping the service', { code, signal });
      stop(1);
      return;
    }
    log('error', 'worker died: starting another', { code, signal });
    setTimeout(() => {
      if (!stopping) fork();
    }, respawnDelayMs);
  });

  function stop(code: number): void {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (running.size === 0) process.exit(exitCode);
    for (const worker of running) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of running) worker.process.kill('SIGKILL');
      process.exit(1);
    }, stopTimeoutMs).unref();
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      log('info', 'shutting down', { signal, workers: count });
      stop(0);
    });
  }
  log('info', 'starting workers', { workers: count });
  for (let i = 0; i < count; i++) fork();
  return new Promise<never>(() => {});
}
