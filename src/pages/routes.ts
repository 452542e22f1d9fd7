import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import {
  type AppEnv,
  cacheableHeaders,
  errorResponses,
  matchesEtag,
  notModifiedResponse,
  prefersHtml,
  serveRoute,
} from '../http/index.js';
import { type Lang, isLang, pickLanguage, translator } from '../i18n/index.js';
import { type PageTool, renderCheckPage, type ResolverAdvice } from './check-page.js';
import { pageContentSecurityPolicy } from './csp.js';
import { type ListsPage, renderListsPage } from './lists-page.js';
import { renderNotFoundPage } from './not-found-page.js';
import type { Site } from './site.js';

/**
 * The people's side of the service: the check page at the base path (for browsers: an API client
 * asking for JSON goes on to the next handler), the pages' static assets, and the HTML 404. The
 * routes are relative to the base path: the app mounts them under it.
 */

/** A year: the file name changes with its bytes (assets.ts). */
const assetCaching = 'public, max-age=31536000, immutable';

export const pagesTag = { name: 'Pages', description: "The pages' static files" };

/** The route of the files, its example the name the stylesheet is served under now. */
const assetRoute = (example: string) =>
  createRoute({
    method: 'get',
    path: '/assets/{file}',
    operationId: 'getPageAsset',
    tags: [pagesTag.name],
    summary: "The pages' script and stylesheet, under names that change with their bytes",
    description:
      'The files the pages load, each under a name that carries a hash of its bytes, so each may be kept for a year: a new version has a new name.',
    security: [],
    request: {
      params: z.object({
        file: z.string().openapi({ param: { name: 'file', in: 'path' }, example }),
      }),
    },
    responses: {
      200: {
        description: 'The file, cacheable for a year (immutable)',
        headers: cacheableHeaders,
        content: {
          'text/javascript': { schema: z.string() },
          'text/css': { schema: z.string() },
        },
      },
      304: notModifiedResponse,
      ...errorResponses('getPageAsset', ['not_found']),
    },
  });

export function addPageRoutes(
  app: OpenAPIHono<AppEnv>,
  site: Site,
  tools: readonly PageTool[],
  readiness: {
    /**
     * Whether the list checks can run now (a blocklist proven honest): until then the page offers
     * only the tools whose checks need no list, and says what the operator can do.
     */
    isReady: () => boolean;
    advice: ResolverAdvice;
  },
): void {
  serveRoute(app, assetRoute(site.assets.style.file), (c) => {
    const asset = site.assets.byFile.get(c.req.param('file') ?? '');
    if (!asset) return c.notFound();
    if (matchesEtag(c.req.header('if-none-match'), asset.etag)) {
      return c.body(null, 304, { ETag: asset.etag, 'Cache-Control': assetCaching });
    }
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': asset.contentType,
      'Cache-Control': assetCaching,
      ETag: asset.etag,
    });
  });

  const checkPage: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!prefersHtml(c.req.header('accept'))) {
      await next();
      // RFC 9110 §12.5.5: the answer depends on Accept (the page or what follows).
      c.res.headers.append('Vary', 'Accept');
      return;
    }
    const lang = languageOf(c);
    const ready = readiness.isReady();
    const offered = ready ? tools : tools.filter((entry) => !entry.needsLists);
    const asked = c.req.query('tool');
    const tool = offered.find((entry) => entry.name === asked) ?? offered[0] ?? tools[0]!;
    const body = await renderCheckPage({
      site,
      lang,
      t: translator(lang),
      tools: offered,
      tool,
      target: (c.req.query('target') ?? '').slice(0, 1024),
      languageHref: (other) => `${site.root}/?lang=${other}&tool=${tool.name}`,
      ready,
      advice: readiness.advice,
    });
    return htmlResponse(c, site, {
      body,
      status: 200,
      cacheControl: 'no-cache',
      vary: 'Accept, Accept-Language',
    });
  };
  // Before the tool index (src/tools/tool-index.ts), which documents this path and answers the
  // clients that do not prefer HTML.
  app.get('/', checkPage);
}

/** `?lang=` or Accept-Language (the first value of a repeated parameter). */
export function languageOf(c: Context): Lang {
  return pickLanguage(c.req.query('lang'), c.req.header('accept-language'));
}

/**
 * The language of an answer, and whether the URL named it: an answer chosen by `?lang=` is the
 * same for every client (an embedded badge stays as it was embedded), while one chosen by
 * Accept-Language says `Vary: Accept-Language` (RFC 9110 §12.5.5).
 */
export function languageChoiceOf(c: Context): { lang: Lang; explicit: boolean } {
  return {
    lang: languageOf(c),
    explicit: isLang(c.req.query('lang')?.trim().toLowerCase()),
  };
}

/** An HTML page with the pages' headers: the CSP, its caching, and what it varies on. */
export function htmlResponse(
  c: Context,
  site: Site,
  page: { body: string; status: 200 | 400 | 403 | 404 | 410; cacheControl: string; vary: string },
): Response {
  return c.body(page.body, page.status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': page.cacheControl,
    'Content-Security-Policy': pageContentSecurityPolicy(site.captcha),
    Vary: page.vary,
  });
}

/**
 * The HTML 404 for a browser; undefined for an API client, which gets the JSON error. Its links
 * are built from the route, never from the request's path: `//evil.example/x` is a path no route
 * matched, and written back into an href it would be a link to another site. A share link's
 * 404 (`result`) offers its other languages at the share route's own path (`path`, under the
 * site's root); an unknown path offers them on the check page.
 */
export async function htmlNotFound(
  c: Context,
  site: Site,
  kind: 'result' | 'route',
  path = '/',
): Promise<Response | undefined> {
  if (!prefersHtml(c.req.header('accept'))) return undefined;
  const lang = languageOf(c);
  const body = await renderNotFoundPage({
    site,
    lang,
    t: translator(lang),
    kind,
    languageHref: (other) => `${site.root}${path}?lang=${other}`,
  });
  return htmlResponse(c, site, {
    body,
    status: 404,
    cacheControl: 'no-cache',
    vary: 'Accept, Accept-Language',
  });
}

/** The lists page for a browser (GET /lists with Accept preferring HTML), in the reader's language. */
export async function listsPageResponse(
  c: Context,
  site: Site,
  state: Pick<ListsPage, 'readiness' | 'lists' | 'zones'>,
): Promise<Response> {
  const lang = languageOf(c);
  const body = await renderListsPage({
    ...state,
    site,
    lang,
    t: translator(lang),
    languageHref: (other) => `${site.root}/lists?lang=${other}`,
  });
  return htmlResponse(c, site, {
    body,
    status: 200,
    cacheControl: 'no-cache',
    vary: 'Accept, Accept-Language',
  });
}
