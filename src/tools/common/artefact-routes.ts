import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import {
  type ApiError,
  type AppEnv,
  cacheableHeaders,
  errorResponses,
  notModifiedResponse,
  serveRoute,
  storeErrors,
} from '../../http/index.js';
import { translator } from '../../i18n/index.js';
import { utf8 } from '../../lib/index.js';
import { htmlNotFound, languageChoiceOf, renderSharePage, type Site } from '../../pages/index.js';
import {
  badgeStyles,
  type CardCache,
  type MeaningTable,
  renderBadge,
  renderEndedBadge,
  resultTexts,
} from '../../share/index.js';
import { cacheable, embeddable } from './cacheable.js';
import {
  badgeResponses,
  badgeStyleOf,
  cardOf,
  langField,
  missingBadge,
  pageResponses,
  sharePageResponse,
  shareTag,
  varyOnLanguage,
} from './share-responses.js';
import type { SharingTool } from './tool.js';

/**
 * The shareable artefacts of what a tool shows (a stored result under its token, a watch under its
 * id, ...): an SVG badge to embed, a 1200x630 PNG card for link previews, and the share page
 * carrying the Open Graph tags. Each is validated by an ETag of its bytes and answers 304 to a
 * matching If-None-Match (cacheable.ts); HEAD is answered as GET without the body. A stored result
 * never changes, so its artefacts are immutable; a live subject says how long they may be kept.
 * A share page whose absolute URLs came from the Host header alone is never kept (docs/pages.md).
 */

export interface ArtefactDeps {
  cards: CardCache;
  site: Site;
  /** SHA-256 of the bytes (the platform's Web Crypto): the ETag of every artefact. */
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
  /** The zone list's meanings in Russian, for the artefacts in Russian (src/share/result-texts.ts). */
  meanings: MeaningTable;
}

/** What one key (a token, an id) shows now. */
export interface Shown {
  /** What the tool's `summarise` and `page` read: a stored result, a watch's view. */
  subject: Record<string, unknown>;
  /** The card cache's key: a new one whenever the card would change. */
  cardKey: string;
  /** How long a live subject's artefacts may be kept; a stored result's are immutable. */
  cacheControl?: string;
  /** It has ended (a watch): its badge says so, its card and page are not found. */
  ended?: boolean;
}

export interface ArtefactSource {
  tool: SharingTool;
  /** The path parameter that names what is shown (`token`, `id`), documented. */
  param: { name: string; description: string };
  /** The routes' paths on the tool's app, with the parameter in braces. */
  paths: { badge: string; card: string; page: string; result: string };
  operations: { badge: string; card: string; sharePage: string };
  /** The words of the routes' documentation. */
  docs: {
    badge: { summary: string; found: string; missing: string };
    card: { summary: string; found: string };
    page: { summary: string; missing: string };
  };
  /** What `key` shows now; undefined for an unknown key. */
  find(key: string): Promise<Shown | undefined>;
  /** The 404 of an unknown key, in the source's words. */
  notFound(): ApiError;
}

export function addArtefactRoutes(
  app: OpenAPIHono<AppEnv>,
  source: ArtefactSource,
  deps: ArtefactDeps,
): void {
  const { site } = deps;
  const { tool, param, paths, operations, docs } = source;
  const tags = [shareTag(tool.title)];
  const params = z.object({
    [param.name]: z
      .string()
      .openapi({ param: { name: param.name, in: 'path' }, description: param.description }),
  });
  /** A path of the tool for `key`, from the tool's root: `/ip/v1/share/<token>`. */
  const pathOf = (template: string, key: string) =>
    `/${tool.name}/v1${template.replace(`{${param.name}}`, encodeURIComponent(key))}`;
  const keyOf = (c: { req: { param(name: string): string | undefined } }) =>
    c.req.param(param.name) ?? '';
  const kept = (shown: Shown): Record<string, string> =>
    shown.cacheControl === undefined ? {} : { 'Cache-Control': shown.cacheControl };

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: paths.badge,
      operationId: operations.badge,
      tags,
      summary: docs.badge.summary,
      description:
        'An SVG badge to embed in a page or a README: the verdict in a word and a colour. `lang` fixes its language (else Accept-Language chooses, and the answer varies on it); `style` one of the shields styles. Any site may embed it; revalidate it with its ETag.',
      security: [],
      request: {
        params,
        query: z.object({
          style: z.enum(badgeStyles).optional().openapi({
            description: 'Badge style; any other value (or none) is flat.',
          }),
          lang: langField('badge text'),
        }),
      },
      responses: badgeResponses(operations.badge, docs.badge.found, docs.badge.missing),
    }),
    async (c) => {
      const style = badgeStyleOf(c);
      const { lang, explicit } = languageChoiceOf(c);
      const shown = await source.find(keyOf(c));
      if (!shown) return missingBadge(c, style, lang, explicit);
      const summary = tool.summarise(shown.subject);
      const svg = shown.ended
        ? renderEndedBadge(tool.name, summary.target, style, lang)
        : renderBadge(summary, style, lang);
      return cacheable(c, utf8.encode(svg), 'image/svg+xml; charset=utf-8', {
        lang,
        headers: { ...embeddable, ...varyOnLanguage(explicit), ...kept(shown) },
        digest: deps.digest,
      });
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: paths.card,
      operationId: operations.card,
      tags,
      summary: docs.card.summary,
      description:
        'A 1200x630 PNG for link previews (Open Graph, Twitter): the target, the verdict and what it rests on, in the language `lang` or Accept-Language chooses.',
      security: [],
      request: { params, query: z.object({ lang: langField('card text') }) },
      responses: {
        200: {
          description: docs.card.found,
          headers: cacheableHeaders,
          content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
        },
        304: notModifiedResponse,
        ...errorResponses(operations.card, ['not_found', ...storeErrors]),
      },
    }),
    async (c) => {
      const shown = await source.find(keyOf(c));
      if (!shown || shown.ended) throw source.notFound();
      const { lang, explicit } = languageChoiceOf(c);
      const texts = resultTexts(lang, translator(lang), deps.meanings);
      const summary = texts.summary(tool.summarise(shown.subject));
      const png = await cardOf(deps.cards, shown.cardKey, summary, lang);
      return cacheable(c, png, 'image/png', {
        lang,
        headers: { ...embeddable, ...varyOnLanguage(explicit), ...kept(shown) },
        digest: deps.digest,
      });
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: paths.page,
      operationId: operations.sharePage,
      tags,
      summary: docs.page.summary,
      description:
        'An HTML page to share: what was found, in words, with Open Graph and Twitter tags whose image is the card, and snippets that embed the badge. In the language `lang` or Accept-Language chooses.',
      security: [],
      request: { params, query: z.object({ lang: langField('page') }) },
      responses: pageResponses(operations.sharePage, docs.page.missing),
    }),
    async (c) => {
      const key = keyOf(c);
      const path = pathOf(paths.page, key);
      const shown = await source.find(key);
      if (!shown || shown.ended) {
        const page = await htmlNotFound(c, site, 'result', path);
        if (page) return page;
        throw source.notFound();
      }
      const { lang, explicit } = languageChoiceOf(c);
      // The card and badge in the page's language, named in their URLs: an unfurler or another
      // site fetching them gets the same picture whatever language it asks in.
      const inLang = `?lang=${lang}`;
      const origin = site.publicOrigin(c);
      const absolute = `${origin.base}${site.basePath}`;
      const card = `${pathOf(paths.card, key)}${inLang}`;
      const badge = `${pathOf(paths.badge, key)}${inLang}`;
      const t = translator(lang);
      const summary = tool.summarise(shown.subject);
      const body = await renderSharePage({
        site,
        lang,
        t,
        view: tool.page(shown.subject, {
          lang,
          t,
          summary,
          texts: resultTexts(lang, t, deps.meanings),
          resultPath: `${site.root}${pathOf(paths.result, key)}`,
        }),
        summary,
        links: {
          page: `${absolute}${path}`,
          card: `${absolute}${card}`,
          badge: `${absolute}${badge}`,
          images: { card: `${site.root}${card}`, badge: `${site.root}${badge}` },
          result: `${site.root}${pathOf(paths.result, key)}`,
          // The check page offers the tool again, where it offers it at all.
          checkAnother:
            tool.onCheckPage === false
              ? `${site.root}/?lang=${lang}`
              : `${site.root}/?tool=${tool.name}&lang=${lang}`,
        },
        languageHref: (other) => `${site.root}${path}?lang=${other}`,
      });
      return sharePageResponse(c, site, deps.digest, {
        body,
        lang,
        explicit,
        source: origin.source,
        ...(shown.cacheControl === undefined ? {} : { cacheControl: shown.cacheControl }),
      });
    },
  );
}
