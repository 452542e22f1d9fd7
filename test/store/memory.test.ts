import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.js';

/** The embedded store: values and counters with expiry, bounded, atomic within the process. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('memory store values', () => {
  it('returns what was set, and undefined for a key never set', async () => {
    const store = createMemoryStore();
    await store.set('token:ip:a', '{"ip":"8.8.4.4"}', 60_000);
    expect(await store.get('token:ip:a')).toBe('{"ip":"8.8.4.4"}');
    expect(await store.get('token:ip:b')).toBeUndefined();
  });

  it('replaces a value set again under the same key', async () => {
    const store = createMemoryStore();
    await store.set('k', 'first', 60_000);
    await store.set('k', 'second', 60_000);
    expect(await store.get('k')).toBe('second');
  });

  it('forgets a value once its TTL has passed', async () => {
    const store = createMemoryStore();
    await store.set('short', 'v', 30);
    await store.set('long', 'v', 60_000);
    expect(await store.get('short')).toBe('v');
    await sleep(60);
    expect(await store.get('short')).toBeUndefined();
    expect(await store.get('long')).toBe('v');
  });

  it('evicts the least recently used values first when over its size bound', async () => {
    // Each entry is 1 character of key plus 9 of value: three fit in 30.
    const store = createMemoryStore({ maxValueChars: 30, maxCounters: 10 });
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

  it('stays within its bound however many values arrive', async () => {
    const store = createMemoryStore({ maxValueChars: 1000, maxCounters: 10 });
    for (let i = 0; i < 1000; i++) await store.set(`key-${i}`, 'v'.repeat(40), 60_000);
    let kept = 0;
    for (let i = 0; i < 1000; i++) if ((await store.get(`key-${i}`)) !== undefined) kept++;
    // 45-46 characters an entry: at most 22 fit in 1000.
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(22);
    expect(await store.get('key-999')).toBeDefined();
  });

  it('keeps a stored value unchanged by whatever the caller does with its copy', async () => {
    const store = createMemoryStore();
    const result = { ip: '8.8.4.4', lists: ['a'] };
    await store.set('r', JSON.stringify(result), 60_000);
    result.lists.push('b');
    expect(JSON.parse((await store.get('r')) ?? '{}')).toEqual({ ip: '8.8.4.4', lists: ['a'] });
  });
});

describe('memory store counters', () => {
  it('starts a counter at 0 and returns the new value on each increment', async () => {
    const store = createMemoryStore();
    expect(await store.increment('quota:ip:x', 0, 60_000)).toBe(0);
    expect(await store.increment('quota:ip:x', 1, 60_000)).toBe(1);
    expect(await store.increment('quota:ip:x', 1, 60_000)).toBe(2);
    expect(await store.increment('quota:ip:x', -1, 60_000)).toBe(1);
  });

  it('loses no increment when many arrive at once', async () => {
    const store = createMemoryStore();
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => store.increment('busy', 1, 60_000)),
    );
    expect(await store.increment('busy', 0, 60_000)).toBe(1000);
    // Every caller saw a distinct count: no two were handed the same unit.
    expect(new Set(results).size).toBe(1000);
    expect(Math.max(...results)).toBe(1000);
  });

  it('expires a counter with the TTL given at its creation, not extended by later increments', async () => {
    const store = createMemoryStore();
    await store.increment('day', 1, 80);
    await sleep(40);
    expect(await store.increment('day', 1, 60_000)).toBe(2);
    await sleep(60);
    // 100 ms after creation: the 80 ms expiry held, and the count starts again.
    expect(await store.increment('day', 1, 60_000)).toBe(1);
  });

  it('keeps counters apart from values with the same key', async () => {
    const store = createMemoryStore();
    await store.set('same', 'text', 60_000);
    expect(await store.increment('same', 1, 60_000)).toBe(1);
    expect(await store.get('same')).toBe('text');
  });

  it('bounds the number of counters, dropping the least recently used', async () => {
    const store = createMemoryStore({ maxValueChars: 1000, maxCounters: 3 });
    for (const key of ['a', 'b', 'c']) await store.increment(key, 5, 60_000);
    await store.increment('a', 0, 60_000);
    await store.increment('d', 1, 60_000);
    expect(await store.increment('b', 0, 60_000)).toBe(0);
    expect(await store.increment('a', 0, 60_000)).toBe(5);
  });
});
