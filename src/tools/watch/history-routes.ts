import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type AppEnv, errorResponses, serveRoute, storeErrors } from '../../http/index.js';
import { utf8 } from '../../lib/index.js';
import {
  historyEntrySchema,
  maxHistory,
  type WatchView,
  watchViewSchema,
} from '../../watch/index.js';
import { cacheable } from '../common/index.js';
import { tags } from './answers.js';
import type { WatchToolDeps } from './deps.js';
import {
  exportFileName,
  historyColumns,
  historyCsv,
  spreadsheetTime,
  type StoredEntry,
} from './history-rows.js';
import { watchNotFound } from './manage-key.js';
import { watchIdParams } from './schemas.js';

/**
 * A watch's history to take away (docs/watches.md, "History export"): `history.csv` (RFC 4180,
 * one row per listing change) and `history.json` (the entries as the view gives them). Public as
 * the view is: the history holds no secret. An unknown or ended watch is 404, as GET
 * /watch/v1/{id}. Both change with each reported change, so they are `no-cache` with an ETag;
 * `attachment` with a filename of the target and the date of its last check, since a browser
 * following the link keeps a file.
 */

const exampleEntry = {
  at: '2026-11-02T09:41:00.000Z',
  added: [
    {
      zone: 'zen.spamhaus.org',
      name: 'Spamhaus ZEN',
      code: '127.0.0.2',
      meaning: 'SBL: direct spam source, spam operation or spam service',
      delist_url: 'https://check.spamhaus.org/',
    },
  ],
  removed: [],
  verdict: 'poor' as const,
  score: 60,
};

export const watchHistorySchema = watchViewSchema
  .pick({ id: true, target: true, kind: true, created_at: true })
  .extend({
    history: z.array(historyEntrySchema).meta({
      description: `The changes, newest first: the last ${maxHistory} kept.`,
    }),
  })
  .openapi('WatchHistory', {
    example: {
      id: 'Qm9vdGgtMjAyNi0xMS0wMg',
      target: '192.0.3.20',
      kind: 'ip',
      created_at: '2026-11-01T12:00:00.000Z',
      history: [exampleEntry],
    },
  });

const csvExample = `${historyColumns.join(',')}\r\n${[
  exampleEntry.at,
  'listed',
  'zen.spamhaus.org',
  'Spamhaus ZEN',
  '127.0.0.2',
  `"${exampleEntry.added[0]!.meaning}"`,
  'poor',
  '60',
  '',
  '192.0.3.20',
  spreadsheetTime(exampleEntry.at),
  '',
  '',
].join(',')}\r\n`;

async function historyOf(deps: WatchToolDeps, id: string): Promise<WatchView> {
  const watch = await deps.watches.view(id);
  if (!watch || watch.ended) throw watchNotFound();
  return watch;
}

function exported(
  c: Context,
  deps: WatchToolDeps,
  watch: WatchView,
  body: string,
  type: { contentType: string; extension: 'csv' | 'json' },
): Promise<Response> {
  return cacheable(c, utf8.encode(body), type.contentType, {
    digest: deps.digest,
    headers: {
      'Cache-Control': 'no-cache',
      // A target is a host name or an address, `:` made `_`: nothing in it needs quoting (RFC 6266 §4.1).
      'Content-Disposition': `attachment; filename="${exportFileName(watch.target, watch.checked_at ?? watch.created_at, type.extension)}"`,
    },
  });
}

const notModified = { description: 'Not modified: If-None-Match matched the ETag.' };

export function addHistoryRoutes(app: OpenAPIHono<AppEnv>, deps: WatchToolDeps): void {
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/history.csv',
      operationId: 'getWatchHistoryCsv',
      tags,
      summary: 'A watch’s history as CSV: one row per listing change',
      description: `RFC 4180, CRLF line ends, a header row: ${historyColumns.join(', ')}. address: a domain watch’s sender address, else empty; time_utc: the time as YYYY-MM-DD HH:MM:SS in UTC, which spreadsheets read as a date; listed_for ([h]:mm:ss) and listed_for_s (seconds): on a delisted row, how long the listing lasted, when the history tells. Newest first. Saved as <target>-<date of the last check>.csv. A text cell beginning with = + - @ gets a leading ' so spreadsheets read no formula.`,
      security: [],
      request: { params: watchIdParams },
      responses: {
        200: {
          description: 'The history as CSV; revalidate it with its ETag (Cache-Control: no-cache)',
          content: { 'text/csv': { schema: z.string().openapi({ example: csvExample }) } },
        },
        304: notModified,
        ...errorResponses('getWatchHistoryCsv', ['not_found', ...storeErrors]),
      },
    }),
    async (c) => {
      const watch = await historyOf(deps, c.req.param('id')!);
      const csv = historyCsv({ ...watch, history: watch.history as StoredEntry[] });
      return exported(c, deps, watch, csv, {
        contentType: 'text/csv; charset=utf-8; header=present',
        extension: 'csv',
      });
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/history.json',
      operationId: 'getWatchHistoryJson',
      tags,
      summary: 'A watch’s history as JSON: its changes, newest first',
      description:
        'The watch’s confirmed changes (the last 100), newest first, with its id, target and kind: what its page draws as a timeline. Anyone with the id may read it.',
      security: [],
      request: { params: watchIdParams },
      responses: {
        200: {
          description: 'The history; revalidate it with its ETag (Cache-Control: no-cache)',
          content: { 'application/json': { schema: watchHistorySchema } },
        },
        304: notModified,
        ...errorResponses('getWatchHistoryJson', ['not_found', ...storeErrors]),
      },
    }),
    async (c) => {
      const watch = await historyOf(deps, c.req.param('id')!);
      const { id, target, kind, created_at, history } = watch;
      const body = JSON.stringify({ id, target, kind, created_at, history });
      return exported(c, deps, watch, body, {
        contentType: 'application/json',
        extension: 'json',
      });
    },
  );
}
