import { LRUCache } from 'lru-cache';
import type { Lang } from '../i18n/index.js';
import type { ShareSummary } from './summary.js';

/**
 * Rendered cards by key (e.g. the share token): a card takes tens of milliseconds of CPU to draw,
 * and a link shared in a chat is fetched by every preview bot at once. The PNGs are kept in an LRU
 * bounded by their total bytes, concurrent requests for one key wait on a single render, and a
 * render that fails is not kept, so the next request tries again.
 */

export interface CardCache {
  /** The card of `summary` in `lang`, kept under `key` (the share token) and the language. */
  get(key: string, summary: ShareSummary, lang: Lang): Promise<Buffer>;
}

export interface CardCacheOptions {
  /** Total size of the PNGs kept; a single card larger than this is rendered but not kept. */
  maxBytes: number;
  render: (summary: ShareSummary, lang: Lang) => Promise<Buffer>;
}

/** The cache key of a card: the same result draws a different card in each language. */
export function cardKey(key: string, lang: Lang): string {
  return `${lang}:${key}`;
}

export function createCardCache({ maxBytes, render }: CardCacheOptions): CardCache {
  const cards = new LRUCache<string, Buffer>({
    maxSize: maxBytes,
    sizeCalculation: (png) => png.byteLength,
  });
  const rendering = new Map<string, Promise<Buffer>>();

  return {
    get(id, summary, lang) {
      const key = cardKey(id, lang);
      const cached = cards.get(key);
      if (cached) return Promise.resolve(cached);
      const pending = rendering.get(key);
      if (pending) return pending;
      // Chained from a resolved promise so that even a render throwing synchronously settles
      // `fresh`, and the in-flight entry is always removed after it was added.
      const fresh = Promise.resolve()
        .then(() => render(summary, lang))
        .then((png) => {
          cards.set(key, png);
          return png;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, fresh);
      return fresh;
    },
  };
}

/**
 * Thrown by a renderer that has as many cards waiting as it may queue: the caller should try again
 * after `retryAfterS` seconds (a 503 with Retry-After).
 */
export class CardRendererBusy extends Error {
  constructor(readonly retryAfterS: number) {
    super('too many cards are being drawn');
    this.name = 'CardRendererBusy';
  }
}
