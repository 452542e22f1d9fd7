import { parentPort, workerData } from 'node:worker_threads';
import { startDelayingForwarder } from '../fixtures/delaying-forwarder.js';
import { delayOf, type TricklePlan } from './trickle-plan.js';

/**
 * The trickling section's forwarder (fixtures/delaying-forwarder.ts) in a worker thread of its
 * own: it holds about a thousand answers at 24 checks in flight, and on its own thread neither
 * the fixture DNS nor the bench's clients wait for it.
 */

export interface TrickleWorkerSpec {
  upstream: string;
  plan: TricklePlan;
}

const port = parentPort;
if (!port) throw new Error('trickle-worker.ts runs as a worker thread');
const spec = workerData as TrickleWorkerSpec;
const forwarder = await startDelayingForwarder({
  upstream: spec.upstream,
  delayOf: delayOf(spec.plan),
});
port.postMessage({ address: forwarder.address });
port.on('message', () => {
  void forwarder.close().then(() => port.close());
});
