import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * GET /metrics under WORKERS=N (src/node/cluster.ts): whichever worker takes the scrape asks the
 * primary, which asks every listening worker for its registry and sums them with prom-client's
 * AggregatorRegistry (gauges marked otherwise take their maximum), so the numbers cover every
 * process, not the one the connection happened to reach. A worker that does not answer within
 * collectTimeoutMs is left out of that scrape rather than holding it.
 */

const collect = 'reputation:metrics-collect';
const collected = 'reputation:metrics-collected';
const scrape = 'reputation:metrics-scrape';
const scraped = 'reputation:metrics-scraped';

const collectTimeoutMs = 2000;
const scrapeTimeoutMs = 5000;

interface Message {
  type: string;
  id: number;
}
interface Collected extends Message {
  metrics: object[];
}
interface Scraped extends Message {
  text: string;
}

function isMessage(message: unknown, type: string): message is Message {
  return (
    typeof message === 'object' && message !== null && (message as Partial<Message>).type === type
  );
}

/** In a worker: the primary may ask for this registry's metrics at any time. */
export function answerMetricsCollects(registry: Registry): void {
  process.on('message', (message: unknown) => {
    if (!isMessage(message, collect)) return;
    void registry.getMetricsAsJSON().then((metrics) => {
      process.send?.({ type: collected, id: message.id, metrics } satisfies Collected);
    });
  });
}

let nextId = 1;
const waitingScrapes = new Map<number, (text: string) => void>();
let listensForScrapes = false;

/** In a worker: the metrics of every worker, as the primary sums them; rejects past its timeout. */
export function scrapeThroughPrimary(): Promise<string> {
  if (!listensForScrapes) {
    listensForScrapes = true;
    process.on('message', (message: unknown) => {
      if (!isMessage(message, scraped)) return;
      waitingScrapes.get(message.id)?.((message as Scraped).text);
      waitingScrapes.delete(message.id);
    });
  }
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waitingScrapes.delete(id);
      reject(new Error('the primary did not answer with the metrics in time'));
    }, scrapeTimeoutMs);
    waitingScrapes.set(id, (text) => {
      clearTimeout(timer);
      resolve(text);
    });
    process.send?.({ type: scrape, id } satisfies Message);
  });
}

/** In the primary: answers the workers' scrapes from `workers` (those listening). */
export function aggregateWorkerMetrics(workers: () => Iterable<Worker>): void {
  const waiting = new Map<number, (metrics: object[]) => void>();
  let nextCollect = 1;

  function collectFrom(worker: Worker): Promise<object[] | undefined> {
    const id = nextCollect++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(undefined);
      }, collectTimeoutMs);
      waiting.set(id, (metrics) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(metrics);
      });
      worker.send({ type: collect, id } satisfies Message);
    });
  }

  cluster.on('message', (worker, message: unknown) => {
    if (isMessage(message, collected)) {
      waiting.get(message.id)?.((message as Collected).metrics);
      return;
    }
    if (!isMessage(message, scrape)) return;
    const live = [...workers()].filter((each) => each.isConnected());
    void Promise.all(live.map(collectFrom))
      .then(async (answers) => {
        const registries = answers.filter((answer) => answer !== undefined);
        return AggregatorRegistry.aggregate(registries).metrics();
      })
      .then((text) => {
        if (worker.isConnected())
          worker.send({ type: scraped, id: message.id, text } satisfies Scraped);
      });
  });
}
