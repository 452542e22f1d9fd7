import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.js';
import { StoreUnavailableError } from '../../src/store/store.js';

/**
 * What only the memory store does: its bounds. Values and sets go least recently used first;
 * counters are never dropped early, so a full table refuses new ones (the quota fails closed).
 * The behaviour every backend shares is in contract.test.ts.
 */

describe('memory store bounds', () => {
  it('evicts the least recently used values first when over its size bound', async () => {
    // Each entry is 1 character of key plus 9 of value: three fit in 30.
    const store = createMemoryStore({ maxValueChars: 30 });
    await store.set('a', 'xxxxxxxxx', 60_000);
    await store.set('b', 'xxxxxxxxx', 60_000);
    await store.set('c', 'xxxxxxxxx', 60_000);
    // Reading `a` makes `b` the oldest.
    expect(await store.get('a')).toBeDefined();
    await store.set('d', 'xxxxxxxxx', 60_000);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBeDefined();
    expect(await store.get('c')).toBeDefined();
    expect(await store.get('d')).toBeDefined();
  });

  it('stays within its value bound however many values arrive', async () => {
    const store = createMemoryStore({ maxValueChars: 1000 });
    for (let i = 0; i < 1000; i++) await store.set(`key-${i}`, 'v'.repeat(40), 60_000);
    let kept = 0;
    for (let i = 0; i < 1000; i++) if ((await store.get(`key-${i}`)) !== undefined) kept++;
    // 45-46 characters an entry: at most 22 fit in 1000.
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(22);
    expect(await store.get('key-999')).toBeDefined();
  });

  it('never drops a live counter for a new one: a full table refuses the newcomer', async () => {
    const store = createMemoryStore({ maxCounters: 3 });
    for (const key of ['a', 'b', 'c']) await store.increment(key, 5, 60_000);
    await expect(store.increment('d', 1, 60_000)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.incrementWithin('d', 10, 60_000)).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    for (const key of ['a', 'b', 'c']) expect(await store.count(key)).toBe(5);
    // The counters already there go on counting.
    expect(await store.incrementWithin('a', 10, 60_000)).toBe(6);
  });

  it('makes room from expired counters when full', async () => {
    let now = 1_000_000;
    const store = createMemoryStore({ maxCounters: 2 }, () => now);
    await store.increment('yesterday', 1, 1000);
    await store.increment('today', 1, 60_000);
    now += 5000;
    expect(await store.increment('new', 1, 60_000)).toBe(1);
    expect(await store.count('today')).toBe(1);
  });

  it('keeps counters apart from values with the same key', async () => {
    const store = createMemoryStore();
    await store.set('same', 'text', 60_000);
    expect(await store.increment('same', 1, 60_000)).toBe(1);
    expect(await store.get('same')).toBe('text');
  });

  it('bounds its sets by their members, the least recently used set going first', async () => {
    const store = createMemoryStore({ maxSetChars: 100 });
    const addresses = (prefix: string) => Array.from({ length: 4 }, (_, i) => `${prefix}.${i}`);
    await store.addMembers('old', addresses('192.0.2'), 60_000);
    await store.addMembers('new', addresses('198.51.100'), 60_000);
    expect(await store.members('old')).toEqual([]);
    expect(await store.members('new')).toHaveLength(4);
  });
});
