import type { LinksOf } from './events.js';

/**
 * The links an event gives to a watch's page and badge, always absolute (docs/watches.md,
 * "Absolute links"): under PUBLIC_URL when it is set, else under the public origin of the request
 * that created the watch (src/http/public-origin.ts, stored with the watch), then BASE_PATH, at
 * the paths docs/registry.md gives the watch's share page and badge. A watch stored before the
 * origin was kept has only the base path.
 */
export function watchLinks(publicUrl: string | undefined, basePath: string): LinksOf {
  return ({ id, origin }) => {
    const root = `${publicUrl ?? origin ?? ''}${basePath}/watch/v1/${encodeURIComponent(id)}`;
    return { page_url: `${root}/share`, badge_url: `${root}/badge.svg` };
  };
}
