import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../lib/index.js';
import { CardRendererBusy, type ShareSummary, warmUpSummary } from '../../share/index.js';
import type { Lang } from '../../i18n/index.js';
import type { CardJob, CardReply } from './card-worker.js';

/**
 * Cards drawn off the event loop (docs/http-hardening.md#cards-off-the-event-loop): a card holds a
 * core for 40-60 ms, and on the main thread a burst of distinct cards made every other request wait
 * behind them. The pool runs `threads` worker threads, each drawing one card at a time, keeps at
 * most `queue` cards waiting for a free thread, and refuses the next one at once with
 * `CardRendererBusy` (a 503 with Retry-After): waiting longer would only hold connections open for
 * answers that come too late. This is the Node adapter; the card cache in src/share takes any
 * `render` function.
 */

export interface CardPoolOptions {
  /** Drawing threads; 0 means one per core but one (the event loop keeps a core). */
  threads: number;
  /** Cards that may wait for a free thread. */
  queue: number;
  log: Logger;
  /** A card not drawn within this (from when its thread is ready) is abandoned and its thread replaced. */
  renderTimeoutMs?: number;
}

export interface CardPool {
  /** A card in `lang` (English without it). */
  render(summary: ShareSummary, lang?: Lang): Promise<Uint8Array>;
  /** Starts every thread and draws one card on each, so no caller pays the first card's loading. */
  warmUp(): Promise<void>;
  /** Cards being drawn and waiting, for tests and logs. */
  load(): { drawing: number; waiting: number; threads: number };
  close(): Promise<void>;
}

interface Job {
  summary: ShareSummary;
  lang: Lang;
  resolve(png: Uint8Array): void;
  reject(error: Error): void;
}

interface Thread {
  worker?: Worker;
  /** The worker has loaded its renderer module (its start-up is not a card's time). */
  ready?: boolean;
  job?: { id: number; job: Job; timer?: NodeJS.Timeout; started: number };
}

/** A worker's heap bound: a card needs about 60 MB; a runaway render ends its thread, not the process. */
const workerHeapMb = 256;
const defaultRenderTimeoutMs = 15_000;

export function defaultCardThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The worker's entry: under tsx (a `.ts` file, as `npm start` and the tests run) through tsx's
 * `tsImport`, since worker threads do not inherit a loader registered in the parent (and
 * `--import tsx` in `execArgv` fails on Node 20 with ERR_UNKNOWN_FILE_EXTENSION); a compiled
 * build imports the `.js` file directly.
 */
function workerSource(): string {
  const compiled = import.meta.url.endsWith('.js');
  const script = new URL(`./card-worker.${compiled ? 'js' : 'ts'}`, import.meta.url).href;
  return compiled
    ? `import(${JSON.stringify(script)});`
    : `import('tsx/esm/api').then((api) => api.tsImport(${JSON.stringify(script)}, ${JSON.stringify(import.meta.url)}));`;
}

export function createCardPool(options: CardPoolOptions): CardPool {
  const threadCount = options.threads > 0 ? options.threads : defaultCardThreads();
  const renderTimeoutMs = options.renderTimeoutMs ?? defaultRenderTimeoutMs;
  const threads: Thread[] = Array.from({ length: threadCount }, () => ({}));
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;
  /** A running mean of a card's drawing time, for Retry-After. */
  let meanRenderMs = 60;

  function start(thread: Thread): Worker {
    const worker = new Worker(workerSource(), {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: workerHeapMb },
    });
    worker.unref();
    worker.on('message', (reply: CardReply) => {
      if ('ready' in reply) {
        thread.ready = true;
        if (thread.job) startDeadline(thread, worker);
        return;
      }
      const current = thread.job;
      if (!current || current.id !== reply.id) return;
      clearTimeout(current.timer);
      thread.job = undefined;
      if ('png' in reply) {
        meanRenderMs = 0.9 * meanRenderMs + 0.1 * (performance.now() - current.started);
        current.job.resolve(reply.png);
      } else {
        current.job.reject(new Error(`card render failed: ${reply.error}`));
      }
      dispatch();
    });
    const lost = (reason: string) => {
      if (thread.worker !== worker) return;
      thread.worker = undefined;
      thread.ready = false;
      const current = thread.job;
      thread.job = undefined;
      if (current) {
        clearTimeout(current.timer);
        current.job.reject(new Error(`card thread ended: ${reason}`));
      }
      if (!closed) {
        options.log('error', 'card thread ended', { reason });
        dispatch();
      }
    };
    worker.on('error', (error) => lost(String(error)));
    worker.on('exit', (code) => lost(`exit ${code}`));
    return worker;
  }

  /** The card's deadline, from when its thread is ready (loading a thread takes seconds). */
  function startDeadline(thread: Thread, worker: Worker): void {
    if (!thread.job) return;
    thread.job.started = performance.now();
    thread.job.timer = setTimeout(() => {
      // The thread may be stuck in native code: end it; `lost` rejects the job and frees the slot.
      void worker.terminate();
    }, renderTimeoutMs);
  }

  function run(thread: Thread, job: Job): void {
    const worker = thread.worker ?? (thread.worker = start(thread));
    const id = nextId++;
    thread.job = { id, job, started: performance.now() };
    if (thread.ready) startDeadline(thread, worker);
    worker.postMessage({ id, summary: job.summary, lang: job.lang } satisfies CardJob);
  }

  function dispatch(): void {
    for (const thread of threads) {
      if (waiting.length === 0) return;
      if (!thread.job) run(thread, waiting.shift()!);
    }
  }

  function retryAfterS(): number {
    const ahead = waiting.length + threadCount;
    return Math.max(1, Math.ceil((ahead * meanRenderMs) / threadCount / 1000));
  }

  function render(summary: ShareSummary, lang: Lang = 'en'): Promise<Uint8Array> {
    return new Promise<Uint8Array>((resolve, reject) => {
      if (closed) {
        reject(new Error('the card pool is closed'));
        return;
      }
      const job = { summary, lang, resolve, reject };
      const free = threads.find((thread) => !thread.job);
      if (free) run(free, job);
      else if (waiting.length < options.queue) waiting.push(job);
      else reject(new CardRendererBusy(retryAfterS()));
    });
  }

  return {
    render,
    async warmUp() {
      await Promise.all(threads.map(() => render(warmUpSummary)));
    },
    load: () => ({
      drawing: threads.filter((thread) => thread.job).length,
      waiting: waiting.length,
      threads: threadCount,
    }),
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new Error('the card pool is closed'));
      await Promise.all(threads.map((thread) => thread.worker?.terminate()));
    },
  };
}
