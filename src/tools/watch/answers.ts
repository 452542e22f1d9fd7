import type { Context } from 'hono';
import { ApiError } from '../../http/index.js';
import type { Site } from '../../pages/index.js';
import type { WatchFailure, WatchView } from '../../watch/index.js';

/** What every watch route shares: its tag, a watch with its links, the engine's refusals. */

export const tags = ['Watch'];

/** The live badge and page of a watch, absolute from the public origin (docs/pages.md). */
export function watchLinksOf(site: Site, c: Context, id: string) {
  const root = `${site.publicOrigin(c).base}${site.basePath}/watch/v1/${encodeURIComponent(id)}`;
  return { badge_url: `${root}/badge.svg`, page_url: `${root}/share` };
}

/** A watch's view as the routes answer it: with its links. */
export function withLinks(site: Site, c: Context, watch: WatchView) {
  return { ...watch, ...watchLinksOf(site, c, watch.id) };
}

/** The engine's refusals as the API answers them: the codes are the same words. */
export function refused(failure: WatchFailure): ApiError {
  const headers: Record<string, string> =
    failure.retryAfterS === undefined ? {} : { 'Retry-After': String(failure.retryAfterS) };
  return new ApiError(failure.error, failure.reason, headers);
}
