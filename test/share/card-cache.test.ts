import { describe, expect, it, vi } from 'vitest';
import { cardKey, createCardCache } from '../../src/share/card-cache.js';
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

    const requests = Array.from({ length: 5 }, () => cache.get('token-a', summary, 'en'));
    png.resolve(Buffer.from('png'));
    const cards = await Promise.all(requests);

    expect(render).toHaveBeenCalledTimes(1);
    expect(render).toHaveBeenCalledWith(summary, 'en');
    for (const card of cards) expect(card).toBe(cards[0]);
    expect(await cache.get('token-a', summary, 'en')).toBe(cards[0]);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('renders different keys separately', async () => {
    const render = vi.fn(async (s: ShareSummary) => Buffer.from(s.target));
    const cache = createCardCache({ maxBytes: 1_000, render });
    await Promise.all([cache.get('a', summary, 'en'), cache.get('b', summaryFor('domain'), 'en')]);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('keeps a card per language: the key names it, and each language is drawn once', async () => {
    const render = vi.fn(async (s: ShareSummary, lang: string) =>
      Buffer.from(`${lang} ${s.target}`),
    );
    const cache = createCardCache({ maxBytes: 1_000, render });
    const english = await cache.get('ip:token', summary, 'en');
    const russian = await cache.get('ip:token', summary, 'ru');
    expect(english.toString()).toBe('en 203.0.113.7');
    expect(russian.toString()).toBe('ru 203.0.113.7');
    expect(await cache.get('ip:token', summary, 'ru')).toBe(russian);
    expect(await cache.get('ip:token', summary, 'en')).toBe(english);
    expect(render.mock.calls.map(([, lang]) => lang)).toEqual(['en', 'ru']);
    expect(cardKey('ip:token', 'ru')).not.toBe(cardKey('ip:token', 'en'));
  });

  it('evicts the least recently used cards once their bytes exceed the bound', async () => {
    const render = vi.fn(async () => Buffer.alloc(100));
    const cache = createCardCache({ maxBytes: 250, render });

    await cache.get('a', summary, 'en');
    await cache.get('b', summary, 'en');
    await cache.get('a', summary, 'en'); // a is now more recently used than b
    await cache.get('c', summary, 'en'); // 300 bytes: b goes
    expect(render).toHaveBeenCalledTimes(3);

    await cache.get('a', summary, 'en');
    await cache.get('c', summary, 'en');
    expect(render).toHaveBeenCalledTimes(3);
    await cache.get('b', summary, 'en');
    expect(render).toHaveBeenCalledTimes(4);
  });

  it('returns a card larger than the whole bound without keeping it', async () => {
    const render = vi.fn(async () => Buffer.alloc(500));
    const cache = createCardCache({ maxBytes: 250, render });
    expect((await cache.get('a', summary, 'en')).byteLength).toBe(500);
    await cache.get('a', summary, 'en');
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failed render: its waiters all fail and the next request renders again', async () => {
    const failing = deferred<Buffer>();
    const render = vi
      .fn<(s: ShareSummary, lang: string) => Promise<Buffer>>()
      .mockReturnValueOnce(failing.promise)
      .mockResolvedValueOnce(Buffer.from('png'));
    const cache = createCardCache({ maxBytes: 1_000, render });

    const first = cache.get('a', summary, 'en');
    const second = cache.get('a', summary, 'en');
    failing.reject(new Error('satori failed'));
    await expect(first).rejects.toThrow('satori failed');
    await expect(second).rejects.toThrow('satori failed');

    expect((await cache.get('a', summary, 'en')).toString()).toBe('png');
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('turns a render that throws synchronously into a rejection', async () => {
    const render = vi
      .fn<(s: ShareSummary, lang: string) => Promise<Buffer>>()
      .mockImplementationOnce(() => {
        throw new Error('bad summary');
      })
      .mockResolvedValueOnce(Buffer.from('png'));
    const cache = createCardCache({ maxBytes: 1_000, render });
    await expect(cache.get('a', summary, 'en')).rejects.toThrow('bad summary');
    expect((await cache.get('a', summary, 'en')).toString()).toBe('png');
  });
});
