import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest, WorldSpec, ZoneOverride } from './dns-worker.js';

/** The main thread's handle on the fixture DNS server running in `dns-worker.ts`. */

export interface BenchDns {
  /** `127.0.0.1:<port>`. */
  address: string;
  /** `http://127.0.0.1:<port>/dns-query`: the same world over DoH (RFC 8484). */
  dohUrl: string;
  setLatency(ms: number): Promise<void>;
  /** Serves the same world with these zones changed (and every other zone as built). */
  override(overrides: ZoneOverride[]): Promise<void>;
  close(): Promise<void>;
}

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

const startTimeoutMs = 60_000;
const requestTimeoutMs = 30_000;

export async function startBenchDns(spec: WorldSpec): Promise<BenchDns> {
  const script = new URL('./dns-worker.ts', import.meta.url).href;
  // Workers do not inherit tsx's loader: register it inside the worker before importing the script.
  const worker = new Worker(
    `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(script)}); })`,
    { eval: true, workerData: spec },
  );
  const pending = new Map<number, () => void>();
  let nextId = 1;
  let failure: Error | undefined;

  const ready = await new Promise<{ address: string; dohUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('fixture DNS did not start')), startTimeoutMs);
    worker.on('message', (reply: WorkerReply) => {
      if (reply.kind === 'ready') {
        clearTimeout(timer);
        resolve(reply);
      } else if (reply.kind === 'failed') {
        clearTimeout(timer);
        reject(new Error(`fixture DNS: ${reply.error}`));
      } else {
        pending.get(reply.id)?.();
        pending.delete(reply.id);
      }
    });
    worker.on('error', (error) => {
      failure = error;
      clearTimeout(timer);
      reject(error);
    });
  });

  function request(message: WithoutId<WorkerRequest>): Promise<void> {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`fixture DNS did not answer ${message.kind}`));
      }, requestTimeoutMs);
      pending.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage({ ...message, id });
    });
  }

  return {
    address: ready.address,
    dohUrl: ready.dohUrl,
    setLatency: (ms) => request({ kind: 'setLatency', ms }),
    override: (overrides) => request({ kind: 'override', overrides }),
    async close() {
      try {
        await request({ kind: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}
