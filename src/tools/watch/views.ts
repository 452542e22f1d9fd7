import type { Context } from 'hono';
import { utf8 } from '../../lib/index.js';
import type { WatchView } from '../../watch/index.js';
import { type ArtefactSource, cacheable, type SharingTool } from '../common/index.js';
import type { WatchToolDeps } from './deps.js';
import { watchNotFound } from './manage-key.js';

/**
 * A watch's live views: its public JSON, and its badge, card and share page through the artefact
 * routes every tool shares (src/tools/common/artefact-routes.ts), its current state read by the
 * share renderers (summary.ts reads it as a ShareSummary). Unlike a stored result's they change
 * with each check, so they are never immutable: kept at most `liveMaxAgeS` (never longer than the
 * interval) and revalidated by an ETag of their bytes. An ended watch's badge says it ended; an
 * unknown id's is the missing badge (404 with an SVG body, as token badges).
 */

/** How long a shared cache may keep a live answer: five minutes, or the interval if shorter. */
export function liveCacheControl(watch: Pick<WatchView, 'interval_s'>): string {
  return `public, max-age=${Math.min(watch.interval_s, liveMaxAgeS)}`;
}
const liveMaxAgeS = 300;

/** The public view as JSON: `no-cache` with an ETag, since the next check may change it. */
export function liveJson(
  c: Context,
  body: unknown,
  digest: (bytes: Uint8Array) => Promise<Uint8Array>,
): Promise<Response> {
  return cacheable(c, utf8.encode(JSON.stringify(body)), 'application/json', {
    digest,
    headers: { 'Cache-Control': 'no-cache' },
  });
}

/** A watch's badge, card and page under `/{id}`, as they stand after its latest check. */
export function watchArtefacts(
  tool: SharingTool,
  deps: Pick<WatchToolDeps, 'watches'>,
): ArtefactSource {
  return {
    tool,
    param: { name: 'id', description: 'The watch id' },
    paths: { badge: '/{id}/badge.svg', card: '/{id}/card', page: '/{id}/share', result: '/{id}' },
    operations: {
      badge: 'getWatchBadge',
      card: 'getWatchCard',
      sharePage: 'getWatchSharePage',
    },
    docs: {
      badge: {
        summary: 'The live SVG badge of a watch (shields style)',
        found:
          'SVG badge of the current state, or saying the watch ended; kept at most the interval',
        missing: 'Unknown watch: a badge saying so',
      },
      card: {
        summary: 'The live PNG card of a watch, 1200x630 pixels',
        found: 'PNG image of the current state; kept at most the interval',
      },
      page: {
        summary: 'The live share page of a watch: its status and the timeline of its changes',
        missing: 'Unknown or ended watch',
      },
    },
    async find(id) {
      const watch = await deps.watches.view(id);
      return (
        watch && {
          subject: watch,
          // Each check draws anew: the card cache keys on the check's time.
          cardKey: `watch:${watch.id}:${watch.checked_at ?? ''}:${watch.paused}`,
          cacheControl: liveCacheControl(watch),
          ended: watch.ended,
        }
      );
    },
    notFound: watchNotFound,
  };
}
