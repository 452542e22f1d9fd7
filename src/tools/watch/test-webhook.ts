import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, serveRoute, storeErrors } from '../../http/index.js';
import { watchErrors } from '../../watch/index.js';
import { refused, tags } from './answers.js';
import type { WatchToolDeps } from './deps.js';
import { manageKeyErrors, manageKeySecurity, requireManageKey } from './manage-key.js';
import { testQueuedSchema, watchIdParams } from './schemas.js';

/** POST /watch/v1/{id}/test: a `watch.test` event queued for the webhook, signed as every event. */
export function addTestWebhook(app: OpenAPIHono<AppEnv>, deps: WatchToolDeps): void {
  const { watches } = deps;
  serveRoute(
    app,
    createRoute({
      method: 'post',
      path: '/{id}/test',
      operationId: 'testWatchWebhook',
      tags,
      summary: 'Send a watch.test event to the webhook now',
      description:
        'With the watch’s manage key: a watch.test event, in the watch’s webhook format and signed as every event, is queued for its webhook at once, so the receiver and its signature check can be tried without waiting for a change. One at a time: a second while the first waits is 429 `test_pending`.',
      security: manageKeySecurity,
      request: { params: watchIdParams },
      responses: {
        202: {
          description: 'Queued for delivery, signed as every event',
          content: { 'application/json': { schema: testQueuedSchema } },
        },
        ...errorResponses('testWatchWebhook', [
          ...manageKeyErrors,
          ...watchErrors.sendTest,
          ...storeErrors,
        ]),
      },
    }),
    requireManageKey(watches),
    async (c) => {
      const outcome = await watches.sendTest(c.req.param('id')!);
      if (!outcome.ok) throw refused(outcome);
      return c.json({ queued: 'watch.test' as const }, 202);
    },
  );
}
