import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/lib/log.js';
import { type CardPool, createCardPool } from '../../../src/node/cards/card-pool.js';
import { CardRendererBusy } from '../../../src/share/card-cache.js';
import { summaryFor } from '../../share/fixtures.js';

/** The Node adapter that draws cards in worker threads, with a bounded queue. */

const pools: CardPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(options: { queue: number; renderTimeoutMs?: number }, log: Logger = () => {}) {
  const created = createCardPool({ threads: 1, log, ...options });
  pools.push(created);
  return created;
}

const summaryNumber = (n: number) => summaryFor('ip', { target: `203.0.113.${n}` });

// Worker threads load the renderer first: seconds on a machine busy with the rest of the suite.
describe('createCardPool', { timeout: 60_000 }, () => {
  // Both on one pool, so one thread loads the renderer: the cards it draws are real PNGs.
  it('draws real 1200x630 PNGs in a worker thread, and refuses a card beyond its threads and queue at once, with a Retry-After of at least 1 s', async () => {
    const cards = pool({ queue: 2 });
    const outcomes = await Promise.allSettled(
      [1, 2, 3, 4, 5].map((n) => cards.render(summaryNumber(n))),
    );
    // One drawing, two waiting: the fourth and fifth are refused without waiting.
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    const refused = (outcomes[3] as PromiseRejectedResult).reason as unknown;
    expect(refused).toBeInstanceOf(CardRendererBusy);
    expect((refused as CardRendererBusy).retryAfterS).toBeGreaterThanOrEqual(1);
    expect(cards.load()).toEqual({ drawing: 0, waiting: 0, threads: 1 });
    for (const outcome of outcomes.slice(0, 3)) {
      const png = (outcome as PromiseFulfilledResult<Uint8Array>).value;
      expect(await sharp(png).metadata()).toMatchObject({
        format: 'png',
        width: 1200,
        height: 630,
      });
    }
  });

  it('abandons a card past its deadline, ends its thread and starts a new one for the next card', async () => {
    const logged: string[] = [];
    const cards = pool({ queue: 4, renderTimeoutMs: 1 }, (_level, message) => logged.push(message));
    await expect(cards.render(summaryNumber(1))).rejects.toThrow(/card thread ended/);
    // The next card goes to a fresh thread (a terminated one would never answer): it too is
    // abandoned at the 1 ms deadline rather than left waiting.
    await expect(cards.render(summaryNumber(2))).rejects.toThrow(/card thread ended/);
    expect(logged.filter((message) => message === 'card thread ended')).toHaveLength(2);
    expect(cards.load()).toEqual({ drawing: 0, waiting: 0, threads: 1 });
  });
});
