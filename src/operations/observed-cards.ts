import type { Lang } from '../i18n/index.js';
import { CardRendererBusy, type ShareSummary } from '../share/index.js';
import type { Metrics } from './metrics.js';

type RenderCard = (summary: ShareSummary, lang: Lang) => Promise<Uint8Array>;

/**
 * The platform's card renderer, timing each card it draws and counting those it refuses with
 * `busy` (its queue was full: a 503 with Retry-After) and those that fail. Only the cards the card
 * cache did not hold reach it (docs/operations.md).
 */
export function observeCardRender(render: RenderCard, metrics: Metrics): RenderCard {
  return async (summary, lang) => {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const png = await render(summary, lang);
      metrics.cardRender('drawn', seconds());
      return png;
    } catch (error) {
      metrics.cardRender(error instanceof CardRendererBusy ? 'busy' : 'failed', seconds());
      throw error;
    }
  };
}
