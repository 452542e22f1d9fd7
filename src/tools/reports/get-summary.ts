import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, serveRoute } from '../../http/index.js';
import type { ReportsToolDeps } from './deps.js';
import { inboxKeySecurity } from './inbox-key.js';
import { inboxPeriod, periodRouteErrors } from './period.js';
import { keepAliveOf, type SourceReputations } from './reputation.js';
import { inboxIdParams, periodQuery, summarySchema, tags } from './schemas.js';
import { summarise } from './summary.js';

/** GET /reports/v1/{id}: the inbox's summary over a period (the last 30 days by default). */
export function addGetSummary(
  app: OpenAPIHono<AppEnv>,
  deps: ReportsToolDeps,
  reputations: SourceReputations,
): void {
  const { store, retentionDays } = deps.reports;
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getReportsSummary',
      tags,
      summary: 'The summary of an inbox’s reports over a period',
      description:
        'Reports whose period lies mostly within from..to (UTC days); every count is of messages. Sources’ ptr and reputation come from the IP check, cached as the IP tool caches it; a source not checked yet says null and a check starts in the background.',
      security: inboxKeySecurity,
      request: { params: inboxIdParams, query: periodQuery },
      responses: {
        200: {
          description: 'The summary (Cache-Control: no-store)',
          content: { 'application/json': { schema: summarySchema } },
        },
        ...errorResponses('getReportsSummary', periodRouteErrors),
      },
    }),
    async (c) => {
      const { inbox, period } = await inboxPeriod(c, deps);
      const summary = await summarise(
        { store, reputations, retentionDays },
        inbox,
        period,
        keepAliveOf(c),
      );
      return c.json(summary, 200, { 'Cache-Control': 'no-store' });
    },
  );
}
