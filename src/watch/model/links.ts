import type { LinksOf, WatchLinks } from './events.js';

/**
 * The links an event gives to a watch's page and badge, always absolute (docs/watches.md,
 * "Absolute links"): under PUBLIC_URL when it is set, else under the public origin of the request
 * that created the watch (src/http/public-origin.ts, stored with the watch), then BASE_PATH, at
 * the paths docs/registry.md gives the watch's share page and badge. A watch stored before the
 * origin was kept has only the base path.
 */
export function watchLinks(publicUrl: string | undefined, basePath: string): LinksOf {
  return ({ id, origin }) => linksUnder(`${publicUrl ?? origin ?? ''}${basePath}`, id);
}

/**
 * A watch's links under PUBLIC_URL and BASE_PATH alone, whatever origin the watch was stored
 * with: an e-mail's (docs/watches.md, "E-mail"), built when it is sent, so no request's Host is
 * ever in a message.
 */
export function configuredLinks(publicUrl: string, basePath: string): (id: string) => WatchLinks {
  return (id) => linksUnder(`${publicUrl}${basePath}`, id);
}

function linksUnder(base: string, id: string): WatchLinks {
  const root = `${base}/watch/v1/${encodeURIComponent(id)}`;
  return { page_url: `${root}/share`, badge_url: `${root}/badge.svg` };
}
