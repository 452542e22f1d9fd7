import { parentPort } from 'node:worker_threads';
import { createFontLoader, type ShareSummary } from '../../share/index.js';
import type { Lang } from '../../i18n/index.js';
import { createCardRenderer } from './card-render.js';
import { readCardFonts } from './fonts.js';

/**
 * One card-drawing thread of the pool in `card-pool.ts`: it draws the cards it is sent, one at a
 * time, and hands each PNG back as a transferred buffer (no copy between the threads).
 */

export type CardJob = { id: number; summary: ShareSummary; lang: Lang };
export type CardReply =
  | { id: number; png: Uint8Array }
  | { id: number; error: string }
  /** Sent once, when this module has loaded: deadlines count from here, not from start-up. */
  | { ready: true };

const port = parentPort;
if (!port) throw new Error('card-worker.ts runs as a worker thread');
const render = createCardRenderer(createFontLoader(() => readCardFonts()));

port.on('message', ({ id, summary, lang }: CardJob) => {
  render(summary, lang).then(
    (png) => {
      // A copy of its own: sharp's buffer may be a view of a larger one, which cannot be moved.
      const bytes = new Uint8Array(png);
      port.postMessage({ id, png: bytes } satisfies CardReply, [bytes.buffer]);
    },
    (error: unknown) => port.postMessage({ id, error: String(error) } satisfies CardReply),
  );
});

port.postMessage({ ready: true } satisfies CardReply);
