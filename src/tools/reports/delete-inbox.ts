import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, serveRoute, storeErrors } from '../../http/index.js';
import type { ReportsToolDeps } from './deps.js';
import { inboxKeyErrors, inboxKeySecurity, inboxNotFound, keyedInbox } from './inbox-key.js';
import { inboxIdParams, tags } from './schemas.js';

/**
 * DELETE /reports/v1/{id}: the inbox and every report in it erased, its address and link dead,
 * and the watches its auto_watch kept removed.
 */
export function addDeleteInbox(app: OpenAPIHono<AppEnv>, deps: ReportsToolDeps): void {
  const { store, inboxes } = deps.reports;
  serveRoute(
    app,
    createRoute({
      method: 'delete',
      path: '/{id}',
      operationId: 'deleteReportsInbox',
      tags,
      summary: 'Erase an inbox and every report in it',
      description:
        'With the inbox’s key: the inbox, its address, its reports and their summaries are erased at once; its routes and its dashboard answer 404 from then on.',
      security: inboxKeySecurity,
      request: { params: inboxIdParams },
      responses: {
        204: { description: 'Erased' },
        ...errorResponses('deleteReportsInbox', [...inboxKeyErrors, ...storeErrors]),
      },
    }),
    async (c) => {
      const inbox = await keyedInbox(c, inboxes);
      // Two deletes at once: the second finds nothing left.
      if (!(await store.deleteInbox(inbox.id))) throw inboxNotFound();
      // Its auto_watch's watches and records go at its run, which comes at once.
      await deps.reports.autoWatch.erased(inbox.id);
      return c.body(null, 204);
    },
  );
}
