import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  type AppEnv,
  cacheableHeaders,
  errorResponses,
  notModifiedResponse,
  serveRoute,
} from '../../http/index.js';
import { translator } from '../../i18n/index.js';
import { utf8 } from '../../lib/index.js';
import { htmlNotFound, languageChoiceOf, renderSharePage } from '../../pages/index.js';
import { badgeStyles, renderBadge, renderEndedBadge, resultTexts } from '../../share/index.js';
import type { WatchView } from '../../watch/index.js';
import {
  badgeResponses,
  badgeStyleOf,
  cacheable,
  cardOf,
  embeddable,
  langField,
  missingBadge,
  pageResponses,
  sharePageResponse,
  shareTag,
  type ToolDefinition,
  varyOnLanguage,
} from '../common/index.js';
import type { WatchToolDeps } from './index.js';
import { watchNotFound } from './manage-key.js';
import { watchIdParams } from './schemas.js';

/**
 * A watch's live badge, card and share page: its current state through the share renderers
 * (summary.ts reads it as a ShareSummary). Unlike a stored result's they change with each check,
 * so they are never immutable: kept at most `liveMaxAgeS` (never longer than the interval) and
 * revalidated by an ETag of their bytes. An ended watch's badge says it ended; an unknown id's is
 * the missing badge (404 with an SVG body, as token badges).
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

type WatchToolOf = Pick<ToolDefinition, 'name' | 'title' | 'summarise' | 'page'>;

export function addWatchViews(
  app: OpenAPIHono<AppEnv>,
  tool: WatchToolOf,
  deps: WatchToolDeps,
): void {
  const { site, watches } = deps;
  const tags = [shareTag(tool.title)];
  /** A watch that lives; an ended one only where `ended` asks for it (the badge). */
  const load = (id: string) => watches.view(id);

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/badge.svg',
      operationId: 'getWatchBadge',
      tags,
      summary: 'The live SVG badge of a watch (shields style)',
      security: [],
      request: {
        params: watchIdParams,
        query: z.object({
          style: z.enum(badgeStyles).optional().openapi({
            description: 'Badge style; any other value (or none) is flat.',
          }),
          lang: langField('badge text'),
        }),
      },
      responses: badgeResponses(
        'getWatchBadge',
        'SVG badge of the current state, or saying the watch ended; kept at most the interval',
        'Unknown watch: a badge saying so',
      ),
    }),
    async (c) => {
      const style = badgeStyleOf(c);
      const { lang, explicit } = languageChoiceOf(c);
      const watch = await load(c.req.param('id')!);
      const svgType = 'image/svg+xml; charset=utf-8';
      const headers = { ...embeddable, ...varyOnLanguage(explicit) };
      if (!watch) return missingBadge(c, style, lang, explicit);
      const svg = watch.ended
        ? renderEndedBadge(tool.name, tool.summarise(watch).target, style, lang)
        : renderBadge(tool.summarise(watch), style, lang);
      return cacheable(c, utf8.encode(svg), svgType, {
        lang,
        headers: { ...headers, 'Cache-Control': liveCacheControl(watch) },
        digest: deps.digest,
      });
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/card',
      operationId: 'getWatchCard',
      tags,
      summary: 'The live PNG card of a watch, 1200x630 pixels',
      security: [],
      request: { params: watchIdParams, query: z.object({ lang: langField('card text') }) },
      responses: {
        200: {
          description: 'PNG image of the current state; kept at most the interval',
          headers: cacheableHeaders,
          content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
        },
        304: notModifiedResponse,
        ...errorResponses('getWatchCard', ['not_found', 'store_unavailable']),
      },
    }),
    async (c) => {
      const watch = await load(c.req.param('id')!);
      if (!watch || watch.ended) throw watchNotFound();
      const { lang, explicit } = languageChoiceOf(c);
      // Each check draws anew: the card cache keys on the check's time.
      const key = `watch:${watch.id}:${watch.checked_at ?? ''}:${watch.paused}`;
      const texts = resultTexts(lang, translator(lang), deps.meanings);
      const png = await cardOf(deps.cards, key, texts.summary(tool.summarise(watch)), lang);
      return cacheable(c, png, 'image/png', {
        lang,
        headers: {
          ...embeddable,
          ...varyOnLanguage(explicit),
          'Cache-Control': liveCacheControl(watch),
        },
        digest: deps.digest,
      });
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/share',
      operationId: 'getWatchSharePage',
      tags,
      summary: 'The live share page of a watch: its status and the timeline of its changes',
      security: [],
      request: { params: watchIdParams, query: z.object({ lang: langField('page') }) },
      responses: pageResponses('getWatchSharePage', 'Unknown or ended watch'),
    }),
    async (c) => {
      const watch = await load(c.req.param('id')!);
      if (!watch || watch.ended) {
        const page = await htmlNotFound(c, site, 'result');
        if (page) return page;
        throw watchNotFound();
      }
      const { lang, explicit } = languageChoiceOf(c);
      const path = `/${tool.name}/v1/${encodeURIComponent(watch.id)}`;
      const inLang = `?lang=${lang}`;
      const origin = site.publicOrigin(c);
      const base = `${origin.base}${site.basePath}${path}`;
      const t = translator(lang);
      const summary = tool.summarise(watch);
      const body = await renderSharePage({
        site,
        lang,
        t,
        view: tool.page(watch, {
          lang,
          t,
          summary,
          texts: resultTexts(lang, t, deps.meanings),
        }),
        summary,
        links: {
          page: `${base}/share`,
          card: `${base}/card${inLang}`,
          badge: `${base}/badge.svg${inLang}`,
          images: {
            card: `${site.root}${path}/card${inLang}`,
            badge: `${site.root}${path}/badge.svg${inLang}`,
          },
          result: `${site.root}${path}`,
          checkAnother: `${site.root}/?lang=${lang}`,
        },
        languageHref: (other) => `${site.root}${path}/share?lang=${other}`,
      });
      return sharePageResponse(c, site, deps.digest, {
        body,
        lang,
        explicit,
        source: origin.source,
        cacheControl: liveCacheControl(watch),
      });
    },
  );
}
