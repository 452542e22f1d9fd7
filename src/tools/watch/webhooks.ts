import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/index.js';
import { watchEventSchema, type WatchEventType } from '../../watch/index.js';

/**
 * The events a watch POSTs to its webhook, under the OpenAPI 3.1 document's `webhooks` (§4.8.1):
 * one entry per event type, the body `WatchEvent`, and the three Standard Webhooks headers every
 * delivery carries (docs/watches.md, "Events").
 */

const signatureHeaders = [
  {
    name: 'webhook-id',
    description: 'The event’s id (evt_…): the same on every retry, so a receiver drops repeats.',
  },
  { name: 'webhook-timestamp', description: 'The attempt’s time, in Unix seconds.' },
  {
    name: 'webhook-signature',
    description:
      'v1, and the base64 of HMAC-SHA256 over "{webhook-id}.{webhook-timestamp}.{body}" keyed by the bytes of the webhook secret (after whsec_).',
  },
].map((header) => ({
  ...header,
  in: 'header' as const,
  required: true,
  schema: { type: 'string' as const },
}));

/**
 * What authenticates a delivery to its receiver: the Standard Webhooks signature, keyed by the
 * webhook secret the watch's creation answered once (docs/watches.md#events). Declared as the
 * security of each event, so a receiver's generated code knows which header proves the sender.
 */
const signatureScheme = {
  name: 'webhookSignature',
  scheme: {
    type: 'apiKey' as const,
    in: 'header' as const,
    name: 'webhook-signature',
    description:
      'Standard Webhooks: "v1," and the base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}", keyed by the webhook secret (the bytes after whsec_). A receiver recomputes it; the standard’s libraries do, and refuse a timestamp more than 5 minutes from the receiver’s clock.',
  },
};

const events: Record<WatchEventType, string> = {
  'watch.listed': 'The target was newly listed on at least one list',
  'watch.delisted': 'Listings of the target were removed, and none added',
  'watch.changed': 'A mail watch’s mail setup changed (data.changes names each change)',
  'watch.test': 'Sent on request (POST /watch/v1/{id}/test)',
};

export function addWatchWebhooks(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent(
    'securitySchemes',
    signatureScheme.name,
    signatureScheme.scheme,
  );
  for (const [type, summary] of Object.entries(events)) {
    app.openAPIRegistry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `${type.replace('.', '_')}_event`,
      tags: ['Watch'],
      summary,
      security: [{ [signatureScheme.name]: [] }],
      parameters: signatureHeaders,
      request: {
        body: { required: true, content: { 'application/json': { schema: watchEventSchema } } },
      },
      responses: {
        200: {
          description:
            'Any 2xx delivers; 410 removes the webhook; anything else is retried after 5 s, 1 h and 24 h.',
        },
      },
    });
  }
}
