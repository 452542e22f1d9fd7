import type { LinksOf } from './events.js';

/**
 * The links an event gives to a watch's page and badge, under the service's public base (PUBLIC_URL
 * and BASE_PATH; the base path alone when PUBLIC_URL is unset, as a runner has no request to take
 * a host from), at the paths docs/registry.md gives the watch's share page and badge. The routes
 * that serve them may pass links of their own instead.
 */
export function watchLinks(base: string): LinksOf {
  return (id) => ({
    page_url: `${base}/watch/v1/${id}/share`,
    badge_url: `${base}/watch/v1/${id}/badge.svg`,
  });
}
