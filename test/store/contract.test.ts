import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.js';
import { openRedisStore } from '../../src/node/store/redis.js';
import { openSqliteStore } from '../../src/node/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { freshRedisUrl } from '../support/redis.js';
import { describeStoreContract } from './contract.js';

/**
 * The Store contract (src/store/store.ts), the suite of contract.ts run against each backend of
 * the Node server: memory, a real SQLite file and a real redis-server, not stand-ins; and what
 * only a shared backend can do, two connections at once (as two processes hold them). The Workers store runs the same suite
 * inside workerd (test/workerd/store.test.ts).
 */

function temporaryFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'store-contract-')), 'store.db');
}

/**
 * Opens a store on the clock given (the real one by default), and a second connection to the same
 * data where the backend has one.
 */
type Backend = (now?: () => number) => Promise<{ store: Store; another?: () => Promise<Store> }>;

const backends: [string, Backend][] = [
  ['memory', async (now) => ({ store: createMemoryStore({}, now) })],
  [
    'sqlite',
    async (now) => {
      const file = temporaryFile();
      return {
        store: openSqliteStore(file, { now }),
        another: async () => openSqliteStore(file, { now }),
      };
    },
  ],
  [
    'redis',
    async () => {
      const url = await freshRedisUrl();
      return { store: await openRedisStore(url), another: () => openRedisStore(url) };
    },
  ],
];

// Redis keeps its own time (PX): only the stores that take a clock run the suite on one it moves.
for (const [name, open] of backends) {
  describeStoreContract(name, async (now) => (await open(now)).store, {
    movableClock: name !== 'redis',
  });
}

/** What only a shared backend can do: two connections, as two processes would hold them. */
describe.each(backends.filter(([name]) => name !== 'memory'))(
  'two connections to one %s store',
  (_name, open) => {
    const opened: Store[] = [];
    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
    });

    it('share values, counters and sets, and hand the last unit to exactly one request of 20', async () => {
      const { store, another } = await open();
      const second = await another!();
      opened.push(store, second);
      await store.set('token:ip:shared', 'result', 60_000);
      expect(await second.get('token:ip:shared')).toBe('result');
      await second.addMembers('pool', ['192.0.2.9'], 60_000);
      expect(await store.members('pool')).toEqual(['192.0.2.9']);
      await store.increment('shared-quota', 49, 60_000);
      const taken = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? store : second).incrementWithin('shared-quota', 50, 60_000),
        ),
      );
      expect(taken.filter((value) => value !== undefined)).toEqual([50]);
      expect(await second.count('shared-quota')).toBe(50);
    });

    it('hand each due id to one connection only, and the last place of a bounded set to one', async () => {
      const { store, another } = await open();
      const second = await another!();
      opened.push(store, second);
      const now = Date.now();
      const ids = Array.from({ length: 40 }, (_, i) => `watch-${i}`);
      for (const id of ids) await (id.length % 2 ? store : second).putDue('watches', id, now - 5);
      const claims = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (i % 2 === 0 ? store : second).claimDue('watches', now, 4, 60_000),
        ),
      );
      expect(
        claims
          .flat()
          .map((claim) => claim.id)
          .sort(),
      ).toEqual([...ids].sort());
      expect(await second.countDue('watches')).toBe(40);

      await store.addMemberWithin('watch-caps', 'held', 2, 60_000);
      const added = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? store : second).addMemberWithin('watch-caps', `w${i}`, 2, 60_000),
        ),
      );
      expect(added.filter(Boolean)).toHaveLength(1);
    });
  },
);
