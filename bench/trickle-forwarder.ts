import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { TrickleWorkerSpec } from './trickle-worker.js';

/** The main thread's handle on the trickling forwarder running in `trickle-worker.ts`. */

export interface TrickleForwarder {
  /** `127.0.0.1:<port>`. */
  address: string;
  close(): Promise<void>;
}

export async function startTrickleForwarder(spec: TrickleWorkerSpec): Promise<TrickleForwarder> {
  const script = new URL('./trickle-worker.ts', import.meta.url).href;
  // Workers do not inherit tsx's loader: register it inside the worker before importing the script.
  const worker = new Worker(
    `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(script)}); })`,
    { eval: true, workerData: spec },
  );
  const [ready] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => Promise.reject(error as Error)),
  ])) as [{ address: string }];
  return {
    address: ready.address,
    async close() {
      const exited = once(worker, 'exit');
      worker.postMessage('close');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      await worker.terminate();
    },
  };
}
