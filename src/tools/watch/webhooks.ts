import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/index.js';
import { watchEventSchema, type WatchEventType } from '../../watch/index.js';
import { registerWebhookEvent } from '../common/index.js';

/**
 * The events a watch POSTs to its webhook, under the OpenAPI 3.1 document's `webhooks` (§4.8.1):
 * one entry per event type, the body `WatchEvent`, and the three Standard Webhooks headers every
 * delivery carries (docs/watches.md, "Events").
 */

const events: Record<WatchEventType, string> = {
  'watch.listed': 'The target was newly listed on at least one list',
  'watch.delisted': 'Listings of the target were removed, and none added',
  'watch.changed': 'A mail watch’s mail setup changed (data.changes names each change)',
  'watch.test': 'Sent on request (POST /watch/v1/{id}/test)',
};

export function addWatchWebhooks(app: OpenAPIHono<AppEnv>): void {
  for (const [type, summary] of Object.entries(events)) {
    registerWebhookEvent(app, {
      type,
      tag: 'Watch',
      summary,
      schema: watchEventSchema,
      answers:
        'Any 2xx delivers; 410 removes the webhook; anything else is retried after 5 s, 1 h and 24 h.',
    });
  }
}
