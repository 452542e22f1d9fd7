import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCallerIds } from '../../src/operations/caller-ids.js';
import { createMemoryStore } from '../../src/store/index.js';

const dayMs = 86_400_000;

function callerIds(store = createMemoryStore(), at = { time: Date.parse('2026-11-29T06:00:00Z') }) {
  const ids = createCallerIds({
    store,
    clock: () => new Date(at.time),
    randomBytes: (length) => new Uint8Array(randomBytes(length)),
    periodMs: dayMs,
  });
  return { ids, store, at };
}

describe('caller ids', () => {
  it('gives a subject the id every process sharing the store gives it, however often it asks', async () => {
    const { ids, store } = callerIds();
    const first = await ids.idOf('203.0.113.7');
    expect(await ids.idOf('203.0.113.7')).toBe(first);
    // A second process knows nothing of the first's remembered ids: it hashes under the stored key.
    const other = callerIds(store).ids;
    expect(await other.idOf('203.0.113.7')).toBe(first);
    expect(await ids.idOf('203.0.113.8')).not.toBe(first);
    expect(first).not.toContain('203.0.113.7');
  });

  it('gives the same id again after thousands of other callers pushed it out of memory', async () => {
    const { ids } = callerIds();
    const first = await ids.idOf('subject-0');
    const others = await Promise.all(
      Array.from({ length: 5000 }, (_, index) => ids.idOf(`subject-${index + 1}`)),
    );
    expect(new Set(others).size).toBe(5000);
    expect(others).not.toContain(first);
    expect(await ids.idOf('subject-0')).toBe(first);
  });

  it('makes new ids under the next period key, and still answers the old one beside it', async () => {
    const { ids, at } = callerIds();
    const before = await ids.idOf('203.0.113.7');
    at.time += dayMs;
    const after = await ids.idOf('203.0.113.7');
    expect(after).not.toBe(before);
    expect(await ids.idsOf('203.0.113.7')).toEqual([after, before]);
  });
});
