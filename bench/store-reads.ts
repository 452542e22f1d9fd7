import { createMemoryStore, type Store } from '../src/store/index.js';
import { openRedisStore, openSqliteStore } from '../src/node/index.js';
import { temporarySqliteFile } from './service.js';
import { mainThreadCpuMs, round } from './stats.js';

/**
 * What a cached POST asks of its store, and nothing else: the caller's quota count and the
 * result-cache entry (the result's JSON beside its token), read side by side, 640 at a time, in
 * this process. Its CPU per request is the store client's own cost, without HTTP and without the
 * load generator sharing the cores, so backends compare more steadily here than in req/s.
 */

export interface StoreReads {
  cpuUs: number;
  perSecond: number;
}

const reads = 20_000;
const inFlight = 640;

async function measure(store: Store, entry: string): Promise<StoreReads> {
  await store.set('result:ip:192.0.2.1', entry, 600_000);
  await store.increment('quota:ip:192.0.2.9:2026-01-01', 3, 600_000);
  let result: StoreReads = { cpuUs: 0, perSecond: 0 };
  // The first round warms the code up; the second is measured.
  for (let round_ = 0; round_ < 2; round_++) {
    const cpuBefore = mainThreadCpuMs();
    const started = performance.now();
    let issued = 0;
    const worker = async () => {
      while (issued < reads) {
        issued++;
        await Promise.all([
          store.count('quota:ip:192.0.2.9:2026-01-01'),
          store.get('result:ip:192.0.2.1'),
        ]);
        // A request's reads start in a turn of the event loop of their own.
        await new Promise((next) => setImmediate(next));
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    result = {
      cpuUs: round(((mainThreadCpuMs() - cpuBefore) * 1000) / reads),
      perSecond: round((reads / (performance.now() - started)) * 1000),
    };
  }
  await store.close();
  return result;
}

/** The three backends on the same entry: `entry` is a real result-cache entry's text. */
export async function measureStoreReads(
  redisUrl: string,
  entry: string,
): Promise<Record<'memory' | 'sqlite' | 'redis', StoreReads>> {
  return {
    memory: await measure(createMemoryStore(), entry),
    sqlite: await measure(openSqliteStore(temporarySqliteFile()), entry),
    redis: await measure(await openRedisStore(`${redisUrl}/1`), entry),
  };
}
