import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';

/**
 * The Store contract (src/store/store.ts) as one suite every backend runs: the memory, SQLite and
 * Redis stores in contract.test.ts, the Workers store of Durable Objects inside workerd
 * (test/workerd/store.test.ts). What a backend must do alike: values and counters with expiry,
 * counters that reading never creates, atomic increments with and without a limit, sets whose
 * members each keep their own expiry (and a bounded add), and due queues whose claims are atomic.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ContractOptions {
  /**
   * Stretches every TTL and wait of the suite: a backend reached through a round trip per call
   * (a Durable Object inside a busy workerd) needs more than a few milliseconds between two calls.
   */
  timeScale?: number;
  /**
   * The backend reads the time from the clock `open` is given, and the suite moves that clock
   * instead of sleeping: each TTL runs out exactly when a test says, at once, however busy the
   * machine (the memory and SQLite stores take their clock). Otherwise the suite sleeps.
   */
  movableClock?: boolean;
}

export function describeStoreContract(
  name: string,
  open: (now: () => number) => Promise<Store>,
  options: ContractOptions = {},
): void {
  const ms = (value: number) => value * (options.timeScale ?? 1);
  let clockMs = Date.now();
  const now = () => (options.movableClock ? clockMs : Date.now());
  /** Lets `waitMs` pass: on the suite's clock at once, on the real one by sleeping. */
  const pass = async (waitMs: number) => {
    if (options.movableClock) clockMs += waitMs;
    else await sleep(waitMs);
  };
  describe(`the ${name} store`, () => {
    let store: Store;
    beforeEach(async () => {
      clockMs = Date.now();
      store = await open(now);
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
        // A TTL long enough to read the value back on a busy machine; its expiry is awaited, not slept for.
        await store.set('short', 'v', ms(200));
        await store.set('long', 'v', 60_000);
        expect(await store.get('short')).toBe('v');
        await expect
          .poll(
            async () => {
              await pass(ms(20));
              return store.get('short');
            },
            { timeout: ms(2_000), interval: 0 },
          )
          .toBeUndefined();
        expect(await store.get('long')).toBe('v');
      });

      it('forgets a deleted value at once, and deleting a key never set does nothing', async () => {
        await store.set('watch:a', '{"id":"a"}', 60_000);
        await store.set('watch:b', '{"id":"b"}', 60_000);
        await store.delete('watch:a');
        await store.delete('watch:never');
        expect(await store.get('watch:a')).toBeUndefined();
        expect(await store.get('watch:b')).toBe('{"id":"b"}');
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
        await store.increment('day', 1, ms(150));
        await pass(ms(60));
        expect(await store.increment('day', 1, 60_000)).toBe(2);
        await pass(ms(150));
        // 210 ms after creation: the 150 ms expiry held, and the count starts again.
        expect(await store.count('day')).toBe(0);
        expect(await store.increment('day', 1, 60_000)).toBe(1);
      });

      it('does not create a counter by reading it: a later increment sets its own expiry', async () => {
        expect(await store.count('fresh')).toBe(0);
        await store.increment('fresh', 1, ms(60));
        await pass(ms(100));
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
        expect(await store.incrementWithin('short-day', 1, ms(50))).toBe(1);
        expect(await store.incrementWithin('short-day', 1, ms(50))).toBeUndefined();
        await pass(ms(90));
        expect(await store.incrementWithin('short-day', 1, 60_000)).toBe(1);
      });

      it('gives the creation TTL to a counter it creates', async () => {
        expect(await store.incrementWithin('created', 5, ms(60))).toBe(1);
        expect(await store.incrementWithin('created', 5, 60_000)).toBe(2);
        await pass(ms(100));
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
        await store.addMembers('rotating', ['a', 'b'], ms(80));
        await store.addMembers('rotating', ['b', 'c'], 60_000);
        // A shorter TTL later does not cut a member's life short.
        await store.addMembers('rotating', ['c'], ms(10));
        await pass(ms(120));
        expect((await store.members('rotating')).sort()).toEqual(['b', 'c']);
      });

      it('forgets the whole set once every member has expired', async () => {
        await store.addMembers('gone', ['a'], ms(40));
        await pass(ms(80));
        expect(await store.members('gone')).toEqual([]);
      });

      it('adds nothing for an empty list', async () => {
        await store.addMembers('empty', [], 60_000);
        expect(await store.members('empty')).toEqual([]);
      });

      it('takes members out, ignoring members it does not hold', async () => {
        await store.addMembers('removing', ['a', 'b', 'c'], 60_000);
        await store.removeMembers('removing', ['b', 'z']);
        await store.removeMembers('never-written', ['a']);
        expect((await store.members('removing')).sort()).toEqual(['a', 'c']);
      });
    });

    describe('sets with a limit', () => {
      it('adds members up to the limit, then refuses a new one without changing the set', async () => {
        expect(await store.addMemberWithin('caller', 'w1', 2, 60_000)).toBe(true);
        expect(await store.addMemberWithin('caller', 'w2', 2, 60_000)).toBe(true);
        expect(await store.addMemberWithin('caller', 'w3', 2, 60_000)).toBe(false);
        expect((await store.members('caller')).sort()).toEqual(['w1', 'w2']);
      });

      it('accepts a member it already holds when full, renewing it', async () => {
        await store.addMemberWithin('renewed', 'w1', 1, ms(60));
        expect(await store.addMemberWithin('renewed', 'w1', 1, 60_000)).toBe(true);
        await pass(ms(100));
        expect(await store.members('renewed')).toEqual(['w1']);
      });

      it('counts only live members: one that expired or was removed frees its place', async () => {
        await store.addMemberWithin('freed', 'short', 2, ms(40));
        await store.addMemberWithin('freed', 'kept', 2, 60_000);
        await pass(ms(80));
        expect(await store.addMemberWithin('freed', 'third', 2, 60_000)).toBe(true);
        await store.removeMembers('freed', ['kept']);
        expect(await store.addMemberWithin('freed', 'fourth', 2, 60_000)).toBe(true);
        expect((await store.members('freed')).sort()).toEqual(['fourth', 'third']);
      });

      it('gives the last place to exactly one of 20 members arriving at once', async () => {
        await store.addMemberWithin('race-set', 'first', 3, 60_000);
        await store.addMemberWithin('race-set', 'second', 3, 60_000);
        const added = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.addMemberWithin('race-set', `new-${i}`, 3, 60_000),
          ),
        );
        expect(added.filter(Boolean)).toHaveLength(1);
        expect(await store.members('race-set')).toHaveLength(3);
      });
    });

    describe('due queues', () => {
      const t0 = Date.parse('2026-05-10T12:00:00Z');

      it('counts its ids, an id put again being moved rather than added, and none for a queue never written', async () => {
        expect(await store.countDue('watches')).toBe(0);
        await store.putDue('watches', 'a', t0);
        await store.putDue('watches', 'b', t0 + 1000);
        await store.putDue('watches', 'a', t0 + 5000);
        expect(await store.countDue('watches')).toBe(2);
        await store.removeDue('watches', 'a');
        await store.removeDue('watches', 'never');
        expect(await store.countDue('watches')).toBe(1);
      });

      it('claims only what is due, earliest first, up to the limit, with the due time it was claimed for', async () => {
        await store.putDue('q', 'late', t0 + 60_000);
        await store.putDue('q', 'second', t0 - 1000);
        await store.putDue('q', 'first', t0 - 2000);
        await store.putDue('q', 'third', t0);
        expect(await store.claimDue('q', t0, 2, 30_000)).toEqual([
          { id: 'first', dueAt: t0 - 2000 },
          { id: 'second', dueAt: t0 - 1000 },
        ]);
        expect(await store.claimDue('q', t0, 10, 30_000)).toEqual([{ id: 'third', dueAt: t0 }]);
        expect(await store.claimDue('q', t0, 10, 30_000)).toEqual([]);
        expect(await store.countDue('q')).toBe(4);
      });

      it('hands a claimed id out again only when its lease has passed, unless it was put or removed', async () => {
        await store.putDue('leases', 'died', t0);
        await store.putDue('leases', 'rescheduled', t0);
        await store.putDue('leases', 'removed', t0);
        expect(await store.claimDue('leases', t0, 10, 30_000)).toHaveLength(3);
        await store.putDue('leases', 'rescheduled', t0 + 3_600_000);
        await store.removeDue('leases', 'removed');
        expect(await store.claimDue('leases', t0 + 29_999, 10, 30_000)).toEqual([]);
        expect(await store.claimDue('leases', t0 + 30_000, 10, 30_000)).toEqual([
          { id: 'died', dueAt: t0 + 30_000 },
        ]);
      });

      it('hands each due id to exactly one of 10 claimers at once', async () => {
        const ids = Array.from({ length: 30 }, (_, i) => `w${i}`);
        for (const id of ids) await store.putDue('contended', id, t0 - 1);
        const claims = await Promise.all(
          Array.from({ length: 10 }, () => store.claimDue('contended', t0, 5, 60_000)),
        );
        const claimed = claims.flat().map((claim) => claim.id);
        expect(claimed.sort()).toEqual([...ids].sort());
      });

      it('names its earliest due time, a claimed id’s being its lease’s end, and none when empty', async () => {
        expect(await store.earliestDue('next')).toBeUndefined();
        await store.putDue('next', 'later', t0 + 60_000);
        await store.putDue('next', 'sooner', t0 + 1000);
        expect(await store.earliestDue('next')).toBe(t0 + 1000);
        await store.putDue('next', 'due', t0 - 5000);
        await store.claimDue('next', t0, 10, 30_000);
        expect(await store.earliestDue('next')).toBe(t0 + 1000);
        await store.removeDue('next', 'sooner');
        expect(await store.earliestDue('next')).toBe(t0 + 30_000);
        await store.removeDue('next', 'due');
        await store.removeDue('next', 'later');
        expect(await store.earliestDue('next')).toBeUndefined();
      });

      it('keeps queues apart', async () => {
        await store.putDue('one', 'x', t0);
        expect(await store.claimDue('other', t0, 10, 1000)).toEqual([]);
        expect(await store.countDue('other')).toBe(0);
      });
    });
  });
}
