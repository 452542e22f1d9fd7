import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  type AppEnv,
  errorResponses,
  jsonBodyErrors,
  jsonBodyGate,
  readJsonBody,
  serveRoute,
  storeErrors,
} from '../../http/index.js';
import { watchErrors } from '../../watch/index.js';
import { refused, tags, withLinks } from './answers.js';
import type { WatchToolDeps } from './deps.js';
import { manageKeyErrors, manageKeySecurity, requireManageKey } from './manage-key.js';
import { updatedWatchSchema, updateWatchRequest, watchIdParams } from './schemas.js';

/** PATCH /watch/v1/{id}: a watch's interval, webhook or pause changed, and the watch renewed. */
export function addUpdateWatch(app: OpenAPIHono<AppEnv>, deps: WatchToolDeps): void {
  const { watches, site } = deps;
  serveRoute(
    app,
    createRoute({
      method: 'patch',
      path: '/{id}',
      operationId: 'updateWatch',
      tags,
      summary: 'Change a watch’s interval, webhook or pause, and renew it',
      description:
        'With the watch’s manage key. Only the fields given change (`null` removes a webhook or an e-mail address); the watch is renewed for WATCH_TTL_DAYS for the caller who sends it, within that caller’s caps. A new webhook URL gets a new `webhook_secret`, shown in this answer only; a new e-mail address gets a confirmation link.',
      security: manageKeySecurity,
      request: {
        params: watchIdParams,
        body: {
          required: true,
          content: { 'application/json': { schema: updateWatchRequest } },
        },
      },
      responses: {
        200: {
          description: 'The watch, renewed; a new webhook_url’s secret, shown once',
          content: { 'application/json': { schema: updatedWatchSchema } },
        },
        ...errorResponses('updateWatch', [
          ...manageKeyErrors,
          ...jsonBodyErrors,
          ...watchErrors.update,
          ...storeErrors,
        ]),
      },
    }),
    requireManageKey(watches),
    jsonBodyGate,
    async (c) => {
      const body = await readJsonBody(c, updateWatchRequest);
      const outcome = await watches.update(
        c.req.param('id')!,
        {
          ...(body.interval_s === undefined ? {} : { interval_s: body.interval_s }),
          ...(body.webhook_url === undefined ? {} : { webhook_url: body.webhook_url }),
          ...(body.webhook_format === undefined ? {} : { webhook_format: body.webhook_format }),
          ...(body.lang === undefined ? {} : { lang: body.lang }),
          ...(body.email === undefined ? {} : { email: body.email }),
          ...(body.paused === undefined ? {} : { paused: body.paused }),
          ...(body.confirmations === undefined ? {} : { confirmations: body.confirmations }),
        },
        // The renewing caller takes the watch's places again, within the caps.
        { caller: c.get('caller').subject },
      );
      if (!outcome.ok) throw refused(outcome);
      return c.json(
        {
          ...withLinks(site, c, outcome.watch),
          ...(outcome.webhook_secret ? { webhook_secret: outcome.webhook_secret } : {}),
        },
        200,
      );
    },
  );
}
