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
import { type AutoWatch, readAutoWatch } from './auto-watch.js';
import type { ReportsToolDeps } from './deps.js';
import { inboxKeyErrors, inboxKeySecurity, inboxNotFound, keyedInbox } from './inbox-key.js';
import { inboxIdParams, tags, updatedInboxSchema, updateInboxRequest } from './schemas.js';

/** What `readAutoWatch` refuses with: a watch's webhook and e-mail rules. */
const autoWatchErrors = ['invalid_webhook', 'invalid_email', 'email_unavailable'] as const;

/**
 * PATCH /reports/v1/{id}: the inbox's `auto_watch` settings, judged as a watch's webhook and
 * e-mail are and kept on the inbox; null turns them off.
 */
export function addUpdateInbox(app: OpenAPIHono<AppEnv>, deps: ReportsToolDeps): void {
  const { store, inboxes, webhookPorts } = deps.reports;
  serveRoute(
    app,
    createRoute({
      method: 'patch',
      path: '/{id}',
      operationId: 'updateReportsInbox',
      tags,
      summary: 'Set or turn off the inbox’s auto_watch',
      description:
        'With the inbox’s key. `auto_watch` keeps one webhook or one e-mail address, a webhook format and the fewest messages that make a source worth watching; `null` turns it off. The answer is the settings as kept.',
      security: inboxKeySecurity,
      request: {
        params: inboxIdParams,
        body: { required: true, content: { 'application/json': { schema: updateInboxRequest } } },
      },
      responses: {
        200: {
          description: 'The inbox’s settings as kept',
          content: { 'application/json': { schema: updatedInboxSchema } },
        },
        ...errorResponses('updateReportsInbox', [
          ...inboxKeyErrors,
          ...jsonBodyErrors,
          ...autoWatchErrors,
          ...storeErrors,
        ]),
      },
    }),
    async (c, next) => {
      // The key before the body: a caller without it learns nothing of what the body would say.
      await keyedInbox(c, inboxes);
      await next();
    },
    jsonBodyGate,
    async (c) => {
      const body = await readJsonBody(c, updateInboxRequest);
      const autoWatch = readAutoWatch(body.auto_watch, {
        webhookPorts,
        sendsEmail: deps.site.watch.email,
      });
      const updated = await store.updateInbox(c.req.param('id')!, { autoWatch });
      if (!updated) throw inboxNotFound();
      return c.json(
        {
          id: updated.id,
          domain: updated.domain,
          auto_watch: (updated.autoWatch as AutoWatch | null) ?? null,
        },
        200,
      );
    },
  );
}
