import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ApiError, type AppEnv } from '../http/index.js';
import { type Lang, translator } from '../i18n/index.js';
import {
  htmlNotFound,
  htmlResponse,
  languageChoiceOf,
  pageContentSecurityPolicy,
  renderSharePage,
  type Site,
  type ToolResult,
} from '../pages/index.js';
import {
  type BadgeStyle,
  badgeStyles,
  type CardCache,
  CardRendererBusy,
  renderBadge,
  renderMissingBadge,
  type ShareSummary,
} from '../share/index.js';
import { base64url } from './base64url.js';
import type { ResultStore } from './results.js';
import { errorResponse, errorResponses, retryAfter } from './schemas.js';

/**
 * The shareable artefacts of a tool's results: an SVG badge to embed, a 1200x630 PNG card for
 * link previews, and the share page carrying the Open Graph tags. A result never changes, so
 * every artefact is cacheable for long and validated by an ETag of its bytes, except a share page
 * whose absolute URLs came from the Host header alone (docs/pages.md).
 *
 * Each route is documented in the OpenAPI document and served without the validators
 * `app.openapi()` would add: a repeated query parameter (`?style=a&style=b`) is then read as its
 * first value instead of failing validation, and an unknown style is `flat`, so an `<img>` never
 * gets a JSON error to draw.
 */

export interface ShareDeps {
  results: ResultStore;
  cards: CardCache;
  site: Site;
  /** SHA-256 of the bytes (the platform's Web Crypto): the ETag of every artefact. */
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
}

/** Embeds live on other sites: the default same-origin resource policy would break them. */
const embeddable = { 'Cross-Origin-Resource-Policy': 'cross-origin' };
const immutable = 'public, max-age=86400, immutable';

const tokenParams = z.object({
  token: z.string().openapi({ param: { name: 'token', in: 'path' }, description: 'Result token' }),
});

const langField = (what: string) =>
  z
    .enum(['en', 'ru'])
    .optional()
    .openapi({
      description: `Language of the ${what}; without it, Accept-Language decides (and the answer varies on it). Any other value is ignored.`,
    });

const langQuery = z.object({ lang: langField('page') });

/** Without `?lang=`, the answer depends on Accept-Language, and says so. */
function varyOnLanguage(explicit: boolean): Record<string, string> {
  return explicit ? {} : { Vary: 'Accept-Language' };
}

export function addShareRoutes(
  app: OpenAPIHono<AppEnv>,
  names: { tool: 'ip' | 'domain' | 'pool'; operationStem: string },
  deps: ShareDeps,
  summarise: (result: Record<string, unknown>) => ShareSummary,
): void {
  const { tool, operationStem } = names;
  const { site } = deps;
  const tags = [`${operationStem} share`];
  async function load(token: string) {
    const stored = await deps.results.load(tool, token);
    return stored && { result: stored.result, summary: summarise(stored.result) };
  }
  async function requireSummary(token: string): Promise<ShareSummary> {
    const found = await load(token);
    if (!found) throw notFound();
    return found.summary;
  }

  app.openAPIRegistry.registerPath(
    createRoute({
      method: 'get',
      path: '/share/{token}/badge.svg',
      operationId: `get${operationStem}Badge`,
      tags,
      summary: 'SVG badge of a result (shields style)',
      request: {
        params: tokenParams,
        query: z.object({
          style: z.enum(badgeStyles).optional().openapi({
            description: 'Badge style; any other value (or none) is flat.',
          }),
          lang: langField('badge text'),
        }),
      },
      responses: {
        200: { description: 'SVG badge', content: { 'image/svg+xml': { schema: z.string() } } },
        404: {
          description: 'Unknown or expired token: a badge saying so',
          content: { 'image/svg+xml': { schema: z.string() } },
        },
        503: errorResponses[503],
      },
    }),
  );
  app.get('/share/:token/badge.svg', async (c) => {
    const requested = c.req.query('style') ?? 'flat';
    const style: BadgeStyle = (badgeStyles as readonly string[]).includes(requested)
      ? (requested as BadgeStyle)
      : 'flat';
    const { lang, explicit } = languageChoiceOf(c);
    const found = await load(c.req.param('token'));
    const svgType = 'image/svg+xml; charset=utf-8';
    if (!found) {
      // A 404 with an image body, so an embed shows text instead of a broken image.
      return c.body(renderMissingBadge(style, lang), 404, {
        'Content-Type': svgType,
        'Cache-Control': 'no-cache',
        ...embeddable,
        ...varyOnLanguage(explicit),
      });
    }
    const svg = utf8.encode(renderBadge(found.summary, style, lang));
    return cacheable(c, svg, svgType, {
      lang,
      headers: varyOnLanguage(explicit),
      digest: deps.digest,
    });
  });

  app.openAPIRegistry.registerPath(
    createRoute({
      method: 'get',
      path: '/share/{token}/card',
      operationId: `get${operationStem}Card`,
      tags,
      summary: 'PNG card of a result, 1200x630 pixels',
      request: { params: tokenParams, query: z.object({ lang: langField('card text') }) },
      responses: {
        200: {
          description: 'PNG image',
          content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
        },
        404: errorResponses[404],
        503: {
          ...errorResponse(
            'busy: more cards are being drawn than may wait, or store_unavailable (Retry-After)',
          ),
          headers: retryAfter,
        },
      },
    }),
  );
  app.get('/share/:token/card', async (c) => {
    const token = c.req.param('token');
    const summary = await requireSummary(token);
    const { lang, explicit } = languageChoiceOf(c);
    const png = await cardOf(`${tool}:${token}`, summary, lang);
    return cacheable(c, png, 'image/png', {
      lang,
      headers: varyOnLanguage(explicit),
      digest: deps.digest,
    });
  });

  app.openAPIRegistry.registerPath(
    createRoute({
      method: 'get',
      path: '/share/{token}',
      operationId: `get${operationStem}SharePage`,
      tags,
      summary: 'Share page of a result: the result in words, Open Graph tags, badge embed snippets',
      request: { params: tokenParams, query: langQuery },
      responses: {
        200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } },
        404: {
          description:
            'Unknown or expired token: an HTML page when the client prefers text/html, else JSON',
          content: {
            'text/html': { schema: z.string() },
            ...errorResponses[404].content,
          },
        },
        503: errorResponses[503],
      },
    }),
  );
  app.get('/share/:token', async (c) => {
    const token = c.req.param('token');
    const found = await load(token);
    if (!found) {
      const page = await htmlNotFound(c, site, 'result');
      if (page) return page;
      throw notFound();
    }
    const { lang, explicit } = languageChoiceOf(c);
    const path = `/${tool}/v1/share/${encodeURIComponent(token)}`;
    // The card and badge in the page's language, named in their URLs: an unfurler or another
    // site fetching them gets the same picture whatever language it asks in.
    const inLang = `?lang=${lang}`;
    const origin = site.publicOrigin(c);
    const page = `${origin.base}${site.basePath}${path}`;
    const body = await renderSharePage({
      site,
      lang,
      t: translator(lang),
      view: { tool, result: found.result } as ToolResult,
      summary: found.summary,
      links: {
        page,
        card: `${page}/card${inLang}`,
        badge: `${page}/badge.svg${inLang}`,
        images: {
          card: `${site.root}${path}/card${inLang}`,
          badge: `${site.root}${path}/badge.svg${inLang}`,
        },
        result: `${site.root}/${tool}/v1/${encodeURIComponent(token)}`,
        checkAnother: `${site.root}/?tool=${tool}&lang=${lang}`,
      },
      languageHref: (other) => `${site.root}${path}?lang=${other}`,
    });
    // Absolute URLs from the Host header alone never go into a response a shared cache keeps.
    const vary = [
      'Accept',
      ...(explicit ? [] : ['Accept-Language']),
      ...(origin.source === 'forwarded'
        ? ['Forwarded', 'X-Forwarded-Host', 'X-Forwarded-Proto']
        : []),
    ].join(', ');
    if (origin.source === 'host') {
      return htmlResponse(c, site, { body, status: 200, cacheControl: 'no-store', vary });
    }
    return cacheable(c, utf8.encode(body), 'text/html; charset=utf-8', {
      digest: deps.digest,
      lang,
      headers: { Vary: vary, 'Content-Security-Policy': pageContentSecurityPolicy(site.captcha) },
    });
  });

  /** A card, or past the renderer's queue a 503 `busy` with Retry-After (RFC 9110 §10.2.3). */
  async function cardOf(key: string, summary: ShareSummary, lang: Lang): Promise<Uint8Array> {
    try {
      return await deps.cards.get(key, summary, lang);
    } catch (error) {
      if (!(error instanceof CardRendererBusy)) throw error;
      throw new ApiError('busy', 'too many cards are being drawn; try again shortly', {
        'Retry-After': String(error.retryAfterS),
      });
    }
  }
}

function notFound(): ApiError {
  return new ApiError('not_found', 'no result under this token (unknown or expired)');
}

/**
 * RFC 9110 §8.8.3 / §13.1.2: a strong ETag of the bytes, which names the answer's language too
 * (`"ru-…"`), so no validator of one language ever matches another; a matching If-None-Match
 * answers 304.
 */
async function cacheable(
  c: Context,
  body: Uint8Array,
  contentType: string,
  options: {
    lang: Lang;
    headers?: Record<string, string>;
    digest: (bytes: Uint8Array) => Promise<Uint8Array>;
  },
): Promise<Response> {
  const etag = `"${options.lang}-${await etagOf(body, options.digest)}"`;
  const headers = { ETag: etag, 'Cache-Control': immutable, ...embeddable, ...options.headers };
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag))
    return c.body(null, 304, headers);
  // A view of the same bytes (Hono's types want an ArrayBuffer-backed Uint8Array), not a copy.
  const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
  return c.body(bytes, 200, { ...headers, 'Content-Type': contentType });
}

const utf8 = new TextEncoder();

/** Cached cards come back as the same bytes: their hash is taken once, not per request. */
const etags = new WeakMap<Uint8Array, string>();

async function etagOf(
  body: Uint8Array,
  digest: (bytes: Uint8Array) => Promise<Uint8Array>,
): Promise<string> {
  let etag = etags.get(body);
  if (etag === undefined) {
    etag = base64url(await digest(body)).slice(0, 27);
    etags.set(body, etag);
  }
  return etag;
}

/** RFC 9110 §13.1.2: If-None-Match compares weakly, so a compressed copy's W/ tag matches too. */
function matchesEtag(header: string, etag: string): boolean {
  return (
    header.trim() === '*' ||
    header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag)
  );
}
