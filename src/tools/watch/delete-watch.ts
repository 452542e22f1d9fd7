import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, serveRoute, storeErrors } from '../../http/index.js';
import { watchErrors } from '../../watch/index.js';
import { refused, tags } from './answers.js';
import type { WatchToolDeps } from './deps.js';
import { manageKeyErrors, manageKeySecurity, requireManageKey } from './manage-key.js';
import { watchIdParams } from './schemas.js';

/** DELETE /watch/v1/{id}: the watch ends now, with its schedule and pending deliveries. */
export function addDeleteWatch(app: OpenAPIHono<AppEnv>, deps: WatchToolDeps): void {
  const { watches } = deps;
  serveRoute(
    app,
    createRoute({
      method: 'delete',
      path: '/{id}',
      operationId: 'deleteWatch',
      tags,
      summary: 'End a watch: its schedule and its pending deliveries end with it',
      description:
        'With the watch’s manage key (Authorization: Bearer <manage_key>). Its places under the caller’s and the network’s caps are given back at once; every route of it answers 404 from now on.',
      security: manageKeySecurity,
      request: { params: watchIdParams },
      responses: {
        204: { description: 'Deleted' },
        ...errorResponses('deleteWatch', [
          ...manageKeyErrors,
          ...watchErrors.remove,
          ...storeErrors,
        ]),
      },
    }),
    requireManageKey(watches),
    async (c) => {
      const outcome = await watches.remove(c.req.param('id')!);
      if (!outcome.ok) throw refused(outcome);
      return c.body(null, 204);
    },
  );
}
