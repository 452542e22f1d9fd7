import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, serveRoute, storeErrors } from '../../http/index.js';
import { tags, withLinks } from './answers.js';
import type { WatchToolDeps } from './deps.js';
import { heldKeyErrors, holdsManageKey, watchNotFound } from './manage-key.js';
import { publicWatchSchema, watchIdParams } from './schemas.js';
import { liveJson } from './views.js';

/** GET /watch/v1/{id}: anyone's view of a live watch, revalidated by its ETag. */
export function addGetWatch(app: OpenAPIHono<AppEnv>, deps: WatchToolDeps): void {
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}',
      operationId: 'getWatch',
      tags,
      summary: 'The public view of a watch: its status and its history of changes',
      description:
        'Anyone with the id reads it; with its manage key (Authorization: Bearer <manage_key>) the webhook’s last delivery is shown too.',
      // Public: the manage key is optional here, so none is declared (docs/watches.md).
      security: [],
      request: { params: watchIdParams },
      responses: {
        200: {
          description: 'The watch; revalidate it with its ETag (Cache-Control: no-cache)',
          content: { 'application/json': { schema: publicWatchSchema } },
        },
        304: { description: 'Not modified: If-None-Match matched the ETag.' },
        ...errorResponses('getWatch', [...heldKeyErrors, ...storeErrors]),
      },
    }),
    async (c) => {
      const id = c.req.param('id')!;
      const withDelivery = await holdsManageKey(deps.watches, id, c.req.header('authorization'));
      const watch = await deps.watches.view(id, { withDelivery });
      if (!watch || watch.ended) throw watchNotFound();
      return liveJson(c, withLinks(deps.site, c, watch), deps.digest);
    },
  );
}
