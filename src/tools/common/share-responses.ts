import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  ApiError,
  cacheableHeaders,
  errorResponses,
  notModifiedResponse,
  storeErrors,
} from '../../http/index.js';
import type { Lang } from '../../i18n/index.js';
import { utf8 } from '../../lib/index.js';
import { htmlResponse, pageContentSecurityPolicy, type Site } from '../../pages/index.js';
import {
  type BadgeStyle,
  badgeStyles,
  type CardCache,
  CardRendererBusy,
  renderMissingBadge,
  type ShareSummary,
} from '../../share/index.js';
import { cacheable, embeddable } from './cacheable.js';

/**
 * The answers and documentation the artefact routes (artefact-routes.ts) are built from: the
 * `?lang=` and `?style=` readings, the share page's answer, a card or a 503 `busy`, the missing
 * badge, and the documented responses of a badge and a page route.
 *
 * The handlers read their own query: a repeated query parameter (`?style=a&style=b`) is then read
 * as its first value instead of failing validation, and an unknown style is `flat`, so an `<img>`
 * never gets a JSON error to draw.
 */

export const langField = (what: string) =>
  z
    .enum(['en', 'ru'])
    .optional()
    .openapi({
      description: `Language of the ${what}; without it, Accept-Language decides (and the answer varies on it). Any other value is ignored.`,
    });

/** Without `?lang=`, the answer depends on Accept-Language, and says so. */
export function varyOnLanguage(explicit: boolean): Record<string, string> {
  return explicit ? {} : { Vary: 'Accept-Language' };
}

/** `?style=`, its first value; any other than a known style is `flat`. */
export function badgeStyleOf(c: Context): BadgeStyle {
  const requested = c.req.query('style') ?? 'flat';
  return (badgeStyles as readonly string[]).includes(requested)
    ? (requested as BadgeStyle)
    : 'flat';
}

/** The OpenAPI tag of a tool's artefacts, `IP share`. */
export function shareTag(title: string): string {
  return `${title} share`;
}

/**
 * A share page's answer, varying on what chose its language and its absolute URLs. Absolute URLs
 * from the Host header alone never go into a response a shared cache keeps (docs/pages.md).
 */
export function sharePageResponse(
  c: Context,
  site: Site,
  digest: (bytes: Uint8Array) => Promise<Uint8Array>,
  page: {
    body: string;
    lang: Lang;
    explicit: boolean;
    source: 'configured' | 'forwarded' | 'host';
    /** Besides the default (a result's page never changes). */
    cacheControl?: string;
  },
): Response | Promise<Response> {
  // Absolute URLs from request headers (Host or forwarded) never go into a response a shared
  // cache keeps: only PUBLIC_URL's are the same for every client.
  const vary = ['Accept', ...(page.explicit ? [] : ['Accept-Language'])].join(', ');
  if (page.source !== 'configured') {
    return htmlResponse(c, site, { body: page.body, status: 200, cacheControl: 'no-store', vary });
  }
  return cacheable(c, utf8.encode(page.body), 'text/html; charset=utf-8', {
    digest,
    lang: page.lang,
    headers: {
      ...embeddable,
      Vary: vary,
      ...(page.cacheControl ? { 'Cache-Control': page.cacheControl } : {}),
      'Content-Security-Policy': pageContentSecurityPolicy(site.captcha),
    },
  });
}

/** A card, or past the renderer's queue a 503 `busy` with Retry-After (RFC 9110 §10.2.3). */
export async function cardOf(
  cards: CardCache,
  key: string,
  summary: ShareSummary,
  lang: Lang,
): Promise<Uint8Array> {
  try {
    return await cards.get(key, summary, lang);
  } catch (error) {
    if (!(error instanceof CardRendererBusy)) throw error;
    throw new ApiError('busy', 'too many cards are being drawn; try again shortly', {
      'Retry-After': String(error.retryAfterS),
    });
  }
}

/** What sharePageResponse does, as the document says it. */
const onlyWithPublicUrl = 'Only when the service has PUBLIC_URL.';
const sharePageCaching =
  'HTML page. With PUBLIC_URL set, it carries an ETag and a Cache-Control that lets caches keep it (a result’s page: immutable for a day; a watch’s live page: max-age of its interval, at most 300 s). Without PUBLIC_URL its absolute links come from the request, so it is sent with Cache-Control: no-store and no ETag, and If-None-Match never answers 304.';

/**
 * A share page route's documented answers: the HTML page, 304, and a 404 that is a page when the
 * client prefers text/html, else the JSON error.
 */
export function pageResponses(operationId: string, missing: string) {
  const errors = errorResponses(operationId, ['not_found', ...storeErrors]);
  return {
    200: {
      description: sharePageCaching,
      headers: cacheableHeaders,
      content: { 'text/html': { schema: z.string() } },
    },
    304: {
      ...notModifiedResponse,
      description: `${notModifiedResponse.description} ${onlyWithPublicUrl}`,
    },
    ...errors,
    404: {
      description: `${missing}: an HTML page when the client prefers text/html, else JSON`,
      content: { 'text/html': { schema: z.string() }, ...errors[404]!.content },
    },
  };
}

/** A badge route's documented answers: the SVG, 304, and a 404 that is a badge too. */
export function badgeResponses(operationId: string, found: string, missing: string) {
  return {
    200: {
      description: found,
      headers: cacheableHeaders,
      content: { 'image/svg+xml': { schema: z.string() } },
    },
    304: notModifiedResponse,
    ...errorResponses(operationId, storeErrors),
    404: { description: missing, content: { 'image/svg+xml': { schema: z.string() } } },
  };
}

/** A 404 with an image body, so an embed shows text instead of a broken image. */
export function missingBadge(
  c: Context,
  style: Parameters<typeof renderMissingBadge>[0],
  lang: Lang,
  explicit: boolean,
): Response {
  return c.body(renderMissingBadge(style, lang), 404, {
    'Content-Type': 'image/svg+xml; charset=utf-8',
    'Cache-Control': 'no-cache',
    ...embeddable,
    ...varyOnLanguage(explicit),
  });
}
