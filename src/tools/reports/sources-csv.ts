import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, serveRoute } from '../../http/index.js';
import { csvDocument, type CsvCell } from '../../lib/index.js';
import { mattering } from '../../reports/index.js';
import type { ReportsToolDeps } from './deps.js';
import { inboxKeySecurity } from './inbox-key.js';
import { inboxPeriod, periodRouteErrors } from './period.js';
import { keepAliveOf, type SourceReputations } from './reputation.js';
import { inboxIdParams, periodQuery, tags } from './schemas.js';
import { sourceLine } from './summary.js';

/**
 * GET /reports/v1/{id}/sources.csv: every source of the period, most messages first, as RFC 4180
 * CSV (src/lib/csv.ts: CRLF, quoted where needed, no cell read as a formula). Lists within a cell
 * (header From domains, reporters, listings) are separated by a space; a reputation is filled for
 * the sources the summary would show one for, from the same cache.
 */

export const sourceColumns = [
  'ip',
  'messages',
  'pass',
  'fail',
  'spf_aligned',
  'dkim_aligned',
  'header_from',
  'reporters',
  'ptr',
  'verdict',
  'score',
  'listed_on',
] as const;

const csvExample = `${sourceColumns.join(',')}\r\n192.0.3.20,1200,1180,20,1190,1175,demo-sender.com,google.com Outlook.com,mail.demo-sender.com,good,100,\r\n`;

export function addSourcesCsv(
  app: OpenAPIHono<AppEnv>,
  deps: ReportsToolDeps,
  reputations: SourceReputations,
): void {
  const { store } = deps.reports;
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/sources.csv',
      operationId: 'getReportsSourcesCsv',
      tags,
      summary: 'Every source of an inbox’s period as CSV',
      description: `RFC 4180, CRLF line ends, a header row: ${sourceColumns.join(', ')}. Most messages first; lists in a cell are separated by spaces; ptr, verdict, score and listed_on (zones) are empty where the source has no IP check yet. A text cell beginning with = + - @ gets a leading ' so spreadsheets read no formula.`,
      security: inboxKeySecurity,
      request: { params: inboxIdParams, query: periodQuery },
      responses: {
        200: {
          description: 'The sources',
          content: { 'text/csv': { schema: z.string().openapi({ example: csvExample }) } },
        },
        ...errorResponses('getReportsSourcesCsv', periodRouteErrors),
      },
    }),
    async (c) => {
      const { inbox, period } = await inboxPeriod(c, deps);
      const [sources, totals] = await Promise.all([
        store.sources(inbox.id, period),
        store.dmarcTotals(inbox.id, period),
      ]);
      const known = await reputations.of(
        inbox.id,
        [...mattering(sources, totals.messages)],
        keepAliveOf(c),
      );
      const rows = sources.map((source): CsvCell[] => {
        const line = sourceLine(source, known.get(source.ip));
        return [
          line.ip,
          line.messages,
          line.pass,
          line.fail,
          line.spf_aligned,
          line.dkim_aligned,
          line.header_from.join(' '),
          line.reporters.join(' '),
          line.ptr ?? '',
          line.reputation?.verdict ?? '',
          line.reputation?.score ?? '',
          line.reputation?.listed_on.map((listing) => listing.zone).join(' ') ?? '',
        ];
      });
      return c.body(csvDocument(sourceColumns, rows), 200, {
        'Content-Type': 'text/csv; charset=utf-8; header=present',
        'Content-Disposition': `attachment; filename="reports-${inbox.domain}-${period.from}-${period.to}-sources.csv"`,
        'Cache-Control': 'no-store',
      });
    },
  );
}
