import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { ApiError, type AppEnv, errorResponses, serveRoute } from '../../http/index.js';
import type { ReportsToolDeps } from './deps.js';
import { inboxKeySecurity } from './inbox-key.js';
import { inboxPeriod, periodRouteErrors } from './period.js';
import { inboxIdParams, receivedQuery, receivedSchema, tags } from './schemas.js';

/** GET /reports/v1/{id}/received: the reports taken in over a period, newest first. */

export const defaultReceivedLimit = 100;
export const maxReceivedLimit = 1000;

function limitOf(text: string | undefined): number {
  if (text === undefined) return defaultReceivedLimit;
  const limit = Number(text);
  if (!/^\d+$/.test(text) || limit < 1 || limit > maxReceivedLimit) {
    throw new ApiError('invalid_request', `limit: a whole number from 1 to ${maxReceivedLimit}`);
  }
  return limit;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function addReceived(app: OpenAPIHono<AppEnv>, deps: ReportsToolDeps): void {
  const { store } = deps.reports;
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/received',
      operationId: 'getReportsReceived',
      tags,
      summary: 'The reports an inbox took in over a period, newest first',
      description:
        'With the inbox’s key: each report of the period (`from`, `to`: UTC days, the last 30 by default) with its kind, reporter, id, dates, records, messages, and when and how it came in (mail or upload); `limit` of them (1 to 1000, 100 by default), `more` saying whether others are left.',
      security: inboxKeySecurity,
      request: { params: inboxIdParams, query: receivedQuery },
      responses: {
        200: {
          description: 'The reports (Cache-Control: no-store)',
          content: { 'application/json': { schema: receivedSchema } },
        },
        ...errorResponses('getReportsReceived', periodRouteErrors),
      },
    }),
    async (c) => {
      const { inbox, period } = await inboxPeriod(c, deps);
      const limit = limitOf(c.req.query('limit'));
      const reports = await store.received(inbox.id, period, { limit: limit + 1 });
      return c.json(
        {
          period,
          reports: reports.slice(0, limit).map((report) => ({
            kind: report.kind,
            org: report.org,
            report_id: report.reportId,
            begin: iso(report.begin),
            end: iso(report.end),
            records: report.records,
            messages: report.messages,
            received_at: new Date(report.receivedAt).toISOString(),
            via: report.via,
          })),
          more: reports.length > limit,
        },
        200,
        { 'Cache-Control': 'no-store' },
      );
    },
  );
}
