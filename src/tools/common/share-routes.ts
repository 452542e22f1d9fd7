import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  ApiError,
  type AppEnv,
  cacheableHeaders,
  errorResponses,
  notModifiedResponse,
  serveRoute,
} from '../../http/index.js';
import { type Lang, translator } from '../../i18n/index.js';
import { utf8 } from '../../lib/index.js';
import {
  htmlNotFound,
  htmlResponse,
  languageChoiceOf,
  pageContentSecurityPolicy,
  renderSharePage,
  type Site,
} from '../../pages/index.js';
import {
  type BadgeStyle,
  badgeStyles,
  type CardCache,
  CardRendererBusy,
  type MeaningTable,
  renderBadge,
  renderMissingBadge,
  resultTexts,
  type ShareSummary,
} from '../../share/index.js';
import { cacheable, embeddable } from './cacheable.js';
import type { ResultStore } from './results.js';
import type { ToolDefinition } from './tool.js';

/**
 * The shareable artefacts of a tool's results: an SVG badge to embed, a 1200x630 PNG card for
 * link previews, and the share page carrying the Open Graph tags. A result never changes, so
 * every artefact is cacheable for long and validated by an ETag of its bytes (cacheable.ts),
 * except a share page whose absolute URLs came from the Host header alone (docs/pages.md).
 *
 * The handlers read their own query: a repeated query parameter (`?style=a&style=b`) is then read
 * as its first value instead of failing validation, and an unknown style is `flat`, so an `<img>`
 * never gets a JSON error to draw.
 */

export interface ShareDeps {
  results: ResultStore;
  cards: CardCache;
  site: Site;
  /** SHA-256 of the bytes (the platform's Web Crypto): the ETag of every artefact. */
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
  /** The zone list's meanings in Russian, for the artefacts in Russian (src/share/result-texts.ts). */
  meanings: MeaningTable;
}

const tokenParams = z.object({
  token: z.string().openapi({ param: { name: 'token', in: 'path' }, description: 'Result token' }),
});

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

export function addShareRoutes(
  app: OpenAPIHono<AppEnv>,
  tool: Pick<ToolDefinition, 'name' | 'title' | 'summarise' | 'page'>,
  operations: { badge: string; card: string; sharePage: string },
  deps: ShareDeps,
): void {
  const { site } = deps;
  const tags = [shareTag(tool.title)];
  async function load(token: string) {
    const stored = await deps.results.load(tool.name, token);
    return stored && { result: stored.result, summary: tool.summarise(stored.result) };
  }
  async function requireSummary(token: string): Promise<ShareSummary> {
    const found = await load(token);
    if (!found) throw notFound();
    return found.summary;
  }

  const badgeOperation = operations.badge;
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/share/{token}/badge.svg',
      operationId: badgeOperation,
      tags,
      summary: 'SVG badge of a result (shields style)',
      security: [],
      request: {
        params: tokenParams,
        query: z.object({
          style: z.enum(badgeStyles).optional().openapi({
            description: 'Badge style; any other value (or none) is flat.',
          }),
          lang: langField('badge text'),
        }),
      },
      responses: badgeResponses(
        badgeOperation,
        'SVG badge',
        'Unknown or expired token: a badge saying so',
      ),
    }),
    async (c) => {
      const style = badgeStyleOf(c);
      const { lang, explicit } = languageChoiceOf(c);
      const found = await load(c.req.param('token')!);
      const svgType = 'image/svg+xml; charset=utf-8';
      if (!found) return missingBadge(c, style, lang, explicit);
      const svg = utf8.encode(renderBadge(found.summary, style, lang));
      return cacheable(c, svg, svgType, {
        lang,
        headers: { ...embeddable, ...varyOnLanguage(explicit) },
        digest: deps.digest,
      });
    },
  );

  const cardOperation = operations.card;
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/share/{token}/card',
      operationId: cardOperation,
      tags,
      summary: 'PNG card of a result, 1200x630 pixels',
      security: [],
      request: { params: tokenParams, query: z.object({ lang: langField('card text') }) },
      responses: {
        200: {
          description: 'PNG image',
          headers: cacheableHeaders,
          content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
        },
        304: notModifiedResponse,
        ...errorResponses(cardOperation, ['not_found', 'store_unavailable']),
      },
    }),
    async (c) => {
      const token = c.req.param('token')!;
      const summary = await requireSummary(token);
      const { lang, explicit } = languageChoiceOf(c);
      const texts = resultTexts(lang, translator(lang), deps.meanings);
      const png = await cardOf(deps.cards, `${tool.name}:${token}`, texts.summary(summary), lang);
      return cacheable(c, png, 'image/png', {
        lang,
        headers: { ...embeddable, ...varyOnLanguage(explicit) },
        digest: deps.digest,
      });
    },
  );

  const pageOperation = operations.sharePage;
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/share/{token}',
      operationId: pageOperation,
      tags,
      summary: 'Share page of a result: the result in words, Open Graph tags, badge embed snippets',
      security: [],
      request: { params: tokenParams, query: z.object({ lang: langField('page') }) },
      responses: pageResponses(pageOperation, 'Unknown or expired token'),
    }),
    async (c) => {
      const token = c.req.param('token')!;
      const found = await load(token);
      if (!found) {
        const path = `/${tool.name}/v1/share/${encodeURIComponent(token)}`;
        const page = await htmlNotFound(c, site, 'result', path);
        if (page) return page;
        throw notFound();
      }
      const { lang, explicit } = languageChoiceOf(c);
      const path = `/${tool.name}/v1/share/${encodeURIComponent(token)}`;
      // The card and badge in the page's language, named in their URLs: an unfurler or another
      // site fetching them gets the same picture whatever language it asks in.
      const inLang = `?lang=${lang}`;
      const origin = site.publicOrigin(c);
      const page = `${origin.base}${site.basePath}${path}`;
      const t = translator(lang);
      const body = await renderSharePage({
        site,
        lang,
        t,
        view: tool.page(found.result, {
          lang,
          t,
          summary: found.summary,
          texts: resultTexts(lang, t, deps.meanings),
        }),
        summary: found.summary,
        links: {
          page,
          card: `${page}/card${inLang}`,
          badge: `${page}/badge.svg${inLang}`,
          images: {
            card: `${site.root}${path}/card${inLang}`,
            badge: `${site.root}${path}/badge.svg${inLang}`,
          },
          result: `${site.root}/${tool.name}/v1/${encodeURIComponent(token)}`,
          checkAnother: `${site.root}/?tool=${tool.name}&lang=${lang}`,
        },
        languageHref: (other) => `${site.root}${path}?lang=${other}`,
      });
      return sharePageResponse(c, site, deps.digest, {
        body,
        lang,
        explicit,
        source: origin.source,
      });
    },
  );
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

function notFound(): ApiError {
  return new ApiError('not_found', 'no result under this token (unknown or expired)');
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
  const errors = errorResponses(operationId, ['not_found', 'store_unavailable']);
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
    ...errorResponses(operationId, ['store_unavailable']),
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
