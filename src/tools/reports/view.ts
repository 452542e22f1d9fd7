import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import {
  ApiError,
  type AppEnv,
  errorResponses,
  serveRoute,
  storeErrors,
} from '../../http/index.js';
import { isLang, type Lang, pickLanguage, translator } from '../../i18n/index.js';
import type { Context } from 'hono';
import { htmlNotFound, htmlResponse } from '../../pages/index.js';
import { renderDashboard } from './dashboard.js';
import type { ReportsToolDeps } from './deps.js';
import { periodOf } from './period.js';
import { keepAliveOf, type SourceReputations } from './reputation.js';
import { periodQuery, tags, viewTokenParams } from './schemas.js';
import { summarise } from './summary.js';

/**
 * GET /reports/v1/view/{view_token}: the dashboard, for anyone holding the link (no key), in
 * `?lang=`, else the inbox's language, else the browser's; `?from=&to=` as the summary takes
 * them. An unknown token is a 404 (the HTML one for a browser). Never cached: reports keep coming.
 */
/**
 * The page's language: `?lang=`, else the first of Accept-Language's that the pages speak, else
 * the inbox's own (chosen at its creation).
 */
export function languageOf(c: Context, inboxLang: Lang): Lang {
  const asked = c.req.query('lang')?.trim().toLowerCase();
  if (isLang(asked)) return asked;
  const accept = c.req.header('accept-language');
  const spoken = (accept ?? '')
    .split(',')
    .some((range) => isLang(range.split(';')[0]!.trim().toLowerCase().split('-')[0]));
  return spoken ? pickLanguage(undefined, accept) : inboxLang;
}

export function addView(
  app: OpenAPIHono<AppEnv>,
  deps: ReportsToolDeps,
  reputations: SourceReputations,
): void {
  const { store, retentionDays } = deps.reports;
  const { site } = deps;
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/view/{view_token}',
      operationId: 'getReportsDashboard',
      tags,
      summary: 'The dashboard of an inbox: a page for whoever holds its link',
      description:
        'The summary of the period as an HTML page, with no key: how much passed DMARC, a chart of each day, the sources that matter with their reputation and what to do about each, the reporters and TLS. `from` and `to` as the summary takes them; in the language of `lang`, the browser or the inbox. Not cached.',
      security: [],
      request: { params: viewTokenParams, query: periodQuery },
      responses: {
        200: {
          description: 'The page (English or Russian)',
          content: { 'text/html': { schema: z.string() } },
        },
        ...errorResponses('getReportsDashboard', ['invalid_request', 'not_found', ...storeErrors]),
      },
    }),
    async (c) => {
      const token = c.req.param('view_token') ?? '';
      const path = `/reports/v1/view/${encodeURIComponent(token)}`;
      const inbox = /^[A-Za-z0-9_-]{22}$/.test(token)
        ? await store.inboxByViewToken(token)
        : undefined;
      if (!inbox) {
        const page = await htmlNotFound(c, site, 'route', path);
        if (page) return page;
        throw new ApiError('not_found', 'no reports inbox has this view link');
      }
      const lang = languageOf(c, inbox.lang);
      const period = periodOf(c, deps.now());
      const summary = await summarise(
        { store, reputations, retentionDays },
        inbox,
        period,
        keepAliveOf(c),
      );
      const from = c.req.query('from');
      const to = c.req.query('to');
      const window = `${from ? `&from=${encodeURIComponent(from)}` : ''}${to ? `&to=${encodeURIComponent(to)}` : ''}`;
      const body = await renderDashboard({
        site,
        lang,
        t: translator(lang),
        summary,
        lastDays: from === undefined && to === undefined,
        languageHref: (other) => `${site.root}${path}?lang=${other}${window}`,
      });
      return htmlResponse(c, site, {
        body,
        status: 200,
        cacheControl: 'no-store',
        vary: 'Accept-Language',
      });
    },
  );
}
