import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.js';
import { ApiError } from '../http/errors.js';
import { type BadgeStyle, badgeStyles, renderBadge, renderMissingBadge } from '../share/badge.js';
import { type CardCache, CardRendererBusy } from '../share/card-cache.js';
import { renderSharePage, sharePageSecurityPolicy } from '../share/page.js';
import type { ShareSummary } from '../share/summary.js';
import { base64url } from './base64url.js';
import type { ResultStore } from './results.js';
import { errorResponse, errorResponses } from './schemas.js';

/**
 * The shareable artefacts of a tool's results: an SVG badge to embed, a 1200x630 PNG card for
 * link previews, and a small HTML page carrying the Open Graph tags. A result never changes, so
 * every artefact is cacheable for long and validated by an ETag of its bytes.
 */

export interface ShareDeps {
  results: ResultStore;
  cards: CardCache;
  /** SHA-256 of the bytes (the platform's Web Crypto): the ETag of every artefact. */
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
}

/** Embeds live on other sites: the default same-origin resource policy would break them. */
const embeddable = { 'Cross-Origin-Resource-Policy': 'cross-origin' };
const immutable = 'public, max-age=86400, immutable';

const tokenParams = z.object({
  token: z.string().openapi({ param: { name: 'token', in: 'path' }, description: 'Result token' }),
});

export function addShareRoutes(
  app: OpenAPIHono<AppEnv>,
  tool: string,
  deps: ShareDeps,
  summarise: (result: Record<string, unknown>) => ShareSummary,
): void {
  const tags = [`${tool} share`];
  async function summaryOf(token: string): Promise<ShareSummary | undefined> {
    const stored = await deps.results.load(tool, token);
    return stored && summarise(stored.result);
  }
  async function requireSummary(token: string): Promise<ShareSummary> {
    const summary = await summaryOf(token);
    if (!summary)
      throw new ApiError('not_found', 'no result under this token (unknown or expired)');
    return summary;
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/share/{token}/badge.svg',
      tags,
      summary: 'SVG badge of a result (shields style)',
      request: {
        params: tokenParams,
        query: z.object({
          style: z
            .string()
            .optional()
            .openapi({ enum: [...badgeStyles] }),
        }),
      },
      responses: {
        200: { description: 'SVG badge', content: { 'image/svg+xml': { schema: z.string() } } },
        404: {
          description: 'Unknown or expired token: a badge saying so',
          content: { 'image/svg+xml': { schema: z.string() } },
        },
      },
    }),
    async (c: Context<AppEnv>) => {
      // An unknown style falls back to flat: an <img> cannot show a JSON error.
      const requested = c.req.query('style') ?? 'flat';
      const style: BadgeStyle = (badgeStyles as readonly string[]).includes(requested)
        ? (requested as BadgeStyle)
        : 'flat';
      const summary = await summaryOf(c.req.param('token') ?? '');
      const svgType = 'image/svg+xml; charset=utf-8';
      if (!summary) {
        // A 404 with an image body, so an embed shows text instead of a broken image.
        return c.body(renderMissingBadge(style), 404, {
          'Content-Type': svgType,
          'Cache-Control': 'no-cache',
          ...embeddable,
        });
      }
      return cacheable(c, utf8.encode(renderBadge(summary, style)), svgType);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/share/{token}/card',
      tags,
      summary: 'PNG card of a result, 1200x630 pixels',
      request: { params: tokenParams },
      responses: {
        200: {
          description: 'PNG image',
          content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
        },
        404: errorResponses[404],
        503: errorResponse('busy: more cards are being drawn than may wait (Retry-After)'),
      },
    }),
    async (c: Context<AppEnv>) => {
      const token = c.req.param('token') ?? '';
      const summary = await requireSummary(token);
      return cacheable(c, await cardOf(`${tool}:${token}`, summary), 'image/png');
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/share/{token}',
      tags,
      summary: 'Share page of a result: Open Graph tags for link previews, badge embed snippets',
      request: { params: tokenParams },
      responses: {
        200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } },
        404: errorResponses[404],
      },
    }),
    async (c: Context<AppEnv>) => {
      const token = c.req.param('token') ?? '';
      const summary = await requireSummary(token);
      const page = new URL(c.req.url);
      page.search = '';
      // The page asked as `/share/{token}/` links to the same URLs as `/share/{token}`.
      page.pathname = page.pathname.replace(/\/+$/, '');
      const base = page.href.replace(/\/share\/[^/]+$/, '');
      const links = {
        page: page.href,
        card: `${page.href}/card`,
        badge: `${page.href}/badge.svg`,
        result: `${base}/${token}`,
      };
      return cacheable(
        c,
        utf8.encode(await renderSharePage(summary, links)),
        'text/html; charset=utf-8',
        {
          'Content-Security-Policy': await sharePageSecurityPolicy(links),
        },
      );
    },
  );

  /** A card, or past the renderer's queue a 503 `busy` with Retry-After (RFC 9110 §10.2.3). */
  async function cardOf(key: string, summary: ShareSummary): Promise<Uint8Array> {
    try {
      return await deps.cards.get(key, summary);
    } catch (error) {
      if (!(error instanceof CardRendererBusy)) throw error;
      throw new ApiError('busy', 'too many cards are being drawn; try again shortly', {
        'Retry-After': String(error.retryAfterS),
      });
    }
  }

  /** RFC 9110 §8.8.3 / §13.1.2: a strong ETag of the bytes; a matching If-None-Match answers 304. */
  async function cacheable(
    c: Context,
    body: Uint8Array,
    contentType: string,
    more: Record<string, string> = {},
  ): Promise<Response> {
    const etag = await etagOf(body);
    const headers = { ETag: etag, 'Cache-Control': immutable, ...embeddable, ...more };
    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag))
      return c.body(null, 304, headers);
    // A view of the same bytes (Hono's types want an ArrayBuffer-backed Uint8Array), not a copy.
    const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
    return c.body(bytes, 200, { ...headers, 'Content-Type': contentType });
  }

  /** Cached cards come back as the same bytes: their hash is taken once, not per request. */
  async function etagOf(body: Uint8Array): Promise<string> {
    let etag = etags.get(body);
    if (etag === undefined) {
      etag = `"${base64url(await deps.digest(body)).slice(0, 27)}"`;
      etags.set(body, etag);
    }
    return etag;
  }
}

const utf8 = new TextEncoder();
const etags = new WeakMap<Uint8Array, string>();

function matchesEtag(header: string, etag: string): boolean {
  return (
    header.trim() === '*' ||
    header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag)
  );
}
