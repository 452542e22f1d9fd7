import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  ApiError,
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

/**
 * What `readAutoWatch` refuses with (a watch's webhook and e-mail rules), and the day's
 * confirmation messages of an address used (429, as a watch's).
 */
const autoWatchErrors = [
  'invalid_webhook',
  'invalid_email',
  'email_unavailable',
  'email_limit',
] as const;

/**
 * PATCH /reports/v1/{id}: the inbox's `auto_watch` settings, judged as a watch's webhook and
 * e-mail are and kept on the inbox; null turns them off. The auto-watch acts on them
 * (src/auto-watch/): the webhook's secret is answered once, an address is sent its confirmation,
 * and the inbox's watches follow at its run, which comes at once.
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
      const id = c.req.param('id')!;
      const inbox = await store.inbox(id);
      if (!inbox) throw inboxNotFound();
      const autoWatch = readAutoWatch(body.auto_watch, {
        webhookPorts,
        sendsEmail: deps.site.watch.email,
        reachable: deps.reports.webhookReachable(await deps.reports.autoWatch.isOperator(id)),
      });
      // The destination first: a refusal (the day's confirmations used) changes nothing.
      const destination = await deps.reports.autoWatch.configure(
        inbox,
        autoWatch,
        deps.site.publicOrigin(c).base,
      );
      if (!destination.ok) {
        throw new ApiError(
          destination.error,
          destination.reason,
          destination.retryAfterS === undefined
            ? {}
            : { 'Retry-After': String(destination.retryAfterS) },
        );
      }
      const updated = await store.updateInbox(id, { autoWatch });
      if (!updated) throw inboxNotFound();
      await deps.reports.autoWatch.changed(id);
      return c.json(
        {
          id: updated.id,
          domain: updated.domain,
          auto_watch: (updated.autoWatch as AutoWatch | null) ?? null,
          ...(destination.webhook_secret ? { webhook_secret: destination.webhook_secret } : {}),
          ...(destination.email ? { email_confirmed: destination.email.confirmed } : {}),
        },
        200,
      );
    },
  );
}
