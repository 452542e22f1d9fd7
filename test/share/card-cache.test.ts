import { describe, expect, it, vi } from 'vitest';
import { createCardCache } from '../../src/share/card-cache.js';
import type { ShareSummary } from '../../src/share/summary.js';
import { summaryFor } from './fixtures.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const summary = summaryFor('ip');

describe('createCardCache', () => {
  it('renders once for concurrent requests of one key and serves the rest from memory', async () => {
    const png = deferred<Buffer>();
    const render = vi.fn((_: ShareSummary) => png.promise);
    const cache = createCardCache({ maxBytes: 1_000, render });

    const requests = Array.from({ length: 5 }, () => cache.get('token-a', summary));
    png.resolve(Buffer.from('png'));
    const cards = await Promise.all(requests);

    expect(render).toHaveBeenCalledTimes(1);
    expect(render).toHaveBeenCalledWith(summary);
    for (const card of cards) expect(card).toBe(cards[0]);
    expect(await cache.get('token-a', summary)).toBe(cards[0]);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('renders different keys separately', async () => {
    const render = vi.fn(async (s: ShareSummary) => Buffer.from(s.target));
    const cache = createCardCache({ maxBytes: 1_000, render });
    await Promise.all([cache.get('a', summary), cache.get('b', summaryFor('domain'))]);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('evicts the least recently used cards once their bytes exceed the bound', async () => {
    const render = vi.fn(async () => Buffer.alloc(100));
    const cache = createCardCache({ maxBytes: 250, render });

    await cache.get('a', summary);
    await cache.get('b', summary);
    await cache.get('a', summary); // a is now more recently used than b
    await cache.get('c', summary); // 300 bytes: b goes
    expect(render).toHaveBeenCalledTimes(3);

    await cache.get('a', summary);
    await cache.get('c', summary);
    expect(render).toHaveBeenCalledTimes(3);
    await cache.get('b', summary);
    expect(render).toHaveBeenCalledTimes(4);
  });

  it('returns a card larger than the whole bound without keeping it', async () => {
    const render = vi.fn(async () => Buffer.alloc(500));
    const cache = createCardCache({ maxBytes: 250, render });
    expect((await cache.get('a', summary)).byteLength).toBe(500);
    await cache.get('a', summary);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failed render: its waiters all fail and the next request renders again', async () => {
    const failing = deferred<Buffer>();
    const render = vi
      .fn<(s: ShareSummary) => Promise<Buffer>>()
      .mockReturnValueOnce(failing.promise)
      .mockResolvedValueOnce(Buffer.from('png'));
    const cache = createCardCache({ maxBytes: 1_000, render });

    const first = cache.get('a', summary);
    const second = cache.get('a', summary);
    failing.reject(new Error('satori failed'));
    await expect(first).rejects.toThrow('satori failed');
    await expect(second).rejects.toThrow('satori failed');

    expect((await cache.get('a', summary)).toString()).toBe('png');
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('turns a render that throws synchronously into a rejection', async () => {
    const render = vi
      .fn<(s: ShareSummary) => Promise<Buffer>>()
      .mockImplementationOnce(() => {
        throw new Error('bad summary');
      })
      .mockResolvedValueOnce(Buffer.from('png'));
    const cache = createCardCache({ maxBytes: 1_000, render });
    await expect(cache.get('a', summary)).rejects.toThrow('bad summary');
    expect((await cache.get('a', summary)).toString()).toBe('png');
  });
});
