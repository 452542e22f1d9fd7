import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.js';
import { openRedisStore } from '../../src/store/redis.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { freshRedisUrl } from '../support/redis.js';

/**
 * The Store contract (src/store/store.ts), one suite run against each backend: a real SQLite file
 * and a real redis-server, not stand-ins. What a backend must do alike: values and counters with
 * expiry, counters that reading never creates, atomic increments with and without a limit (also
 * from two connections at once), and sets whose members each keep their own expiry.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function temporaryFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'store-contract-')), 'store.db');
}

/** Opens a store, and a second connection to the same data where the backend has one. */
type Backend = () => Promise<{ store: Store; another?: () => Promise<Store> }>;

const backends: [string, Backend][] = [
  ['memory', async () => ({ store: createMemoryStore() })],
  [
    'sqlite',
    async () => {
      const file = temporaryFile();
      return { store: openSqliteStore(file), another: async () => openSqliteStore(file) };
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

describe.each(backends)('the %s store', (_name, open) => {
  let store: Store;
  beforeEach(async () => {
    ({ store } = await open());
  });
  afterEach(() => store.close());

  describe('values', () => {
    it('returns what was set, and undefined for a key never set', async () => {
      await store.set('token:ip:a', '{"ip":"8.8.4.4"}', 60_000);
      expect(await store.get('token:ip:a')).toBe('{"ip":"8.8.4.4"}');
      expect(await store.get('token:ip:b')).toBeUndefined();
    });

    it('replaces a value set again under the same key', async () => {
      await store.set('k', 'first', 60_000);
      await store.set('k', 'second', 60_000);
      expect(await store.get('k')).toBe('second');
    });

    it('forgets a value once its TTL has passed, and only that one', async () => {
      await store.set('short', 'v', 40);
      await store.set('long', 'v', 60_000);
      expect(await store.get('short')).toBe('v');
      await sleep(80);
      expect(await store.get('short')).toBeUndefined();
      expect(await store.get('long')).toBe('v');
    });

    it('keeps a 256 KiB value with multi-byte characters byte for byte', async () => {
      const value = JSON.stringify({ text: 'é😀ж'.repeat(30_000), n: 1 });
      await store.set('big', value, 60_000);
      expect(await store.get('big')).toBe(value);
    });
  });

  describe('counters', () => {
    it('reads a counter never written as 0', async () => {
      expect(await store.count('quota:ip:caller:2026-05-10')).toBe(0);
    });

    it('starts a counter at 0 and returns the new value on each increment, reading it back', async () => {
      expect(await store.increment('c', 1, 60_000)).toBe(1);
      expect(await store.increment('c', 2, 60_000)).toBe(3);
      expect(await store.increment('c', -1, 60_000)).toBe(2);
      expect(await store.count('c')).toBe(2);
    });

    it('expires a counter with the TTL given at its creation, not moved by later increments', async () => {
      await store.increment('day', 1, 150);
      await sleep(60);
      expect(await store.increment('day', 1, 60_000)).toBe(2);
      await sleep(150);
      // 210 ms after creation: the 150 ms expiry held, and the count starts again.
      expect(await store.count('day')).toBe(0);
      expect(await store.increment('day', 1, 60_000)).toBe(1);
    });

    it('does not create a counter by reading it: a later increment sets its own expiry', async () => {
      expect(await store.count('fresh')).toBe(0);
      await store.increment('fresh', 1, 60);
      await sleep(100);
      expect(await store.count('fresh')).toBe(0);
    });

    it('loses no increment when many arrive at once', async () => {
      const results = await Promise.all(
        Array.from({ length: 200 }, () => store.increment('busy', 1, 60_000)),
      );
      expect(await store.count('busy')).toBe(200);
      // Every caller saw a distinct count: no two were handed the same unit.
      expect(new Set(results).size).toBe(200);
    });
  });

  describe('counters with a limit', () => {
    it('takes units up to the limit, then refuses without changing the counter', async () => {
      expect(await store.incrementWithin('q', 2, 60_000)).toBe(1);
      expect(await store.incrementWithin('q', 2, 60_000)).toBe(2);
      expect(await store.incrementWithin('q', 2, 60_000)).toBeUndefined();
      expect(await store.count('q')).toBe(2);
    });

    it('hands the last unit to exactly one of 20 requests arriving at once', async () => {
      await store.increment('race', 4, 60_000);
      const taken = await Promise.all(
        Array.from({ length: 20 }, () => store.incrementWithin('race', 5, 60_000)),
      );
      expect(taken.filter((value) => value !== undefined)).toEqual([5]);
      expect(await store.count('race')).toBe(5);
    });

    it('starts again after the counter expired', async () => {
      expect(await store.incrementWithin('short-day', 1, 50)).toBe(1);
      expect(await store.incrementWithin('short-day', 1, 50)).toBeUndefined();
      await sleep(90);
      expect(await store.incrementWithin('short-day', 1, 60_000)).toBe(1);
    });

    it('gives the creation TTL to a counter it creates', async () => {
      expect(await store.incrementWithin('created', 5, 60)).toBe(1);
      expect(await store.incrementWithin('created', 5, 60_000)).toBe(2);
      await sleep(100);
      expect(await store.count('created')).toBe(0);
    });
  });

  describe('sets', () => {
    it('is empty for a set never written', async () => {
      expect(await store.members('pool-discovery:none.example')).toEqual([]);
    });

    it('holds the union of what was added', async () => {
      await store.addMembers('s', ['192.0.2.1', '192.0.2.2'], 60_000);
      await store.addMembers('s', ['192.0.2.2', '192.0.2.3'], 60_000);
      expect((await store.members('s')).sort()).toEqual(['192.0.2.1', '192.0.2.2', '192.0.2.3']);
    });

    it('lets each member expire on its own, a member added again living to the later expiry', async () => {
      await store.addMembers('rotating', ['a', 'b'], 80);
      await store.addMembers('rotating', ['b', 'c'], 60_000);
      // A shorter TTL later does not cut a member's life short.
      await store.addMembers('rotating', ['c'], 10);
      await sleep(120);
      expect((await store.members('rotating')).sort()).toEqual(['b', 'c']);
    });

    it('forgets the whole set once every member has expired', async () => {
      await store.addMembers('gone', ['a'], 40);
      await sleep(80);
      expect(await store.members('gone')).toEqual([]);
    });

    it('adds nothing for an empty list', async () => {
      await store.addMembers('empty', [], 60_000);
      expect(await store.members('empty')).toEqual([]);
    });
  });
});

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
  },
);
