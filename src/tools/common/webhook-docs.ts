import type { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import type { AppEnv } from '../../http/index.js';

/**
 * An event POSTed to a webhook, under the OpenAPI 3.1 document's `webhooks` (§4.8.1): its body and
 * the three Standard Webhooks headers every delivery carries, a watch's events and a reports
 * inbox's notices alike (docs/watches.md, "Events").
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
 * webhook secret answered once (a watch's creation, a reports inbox's auto_watch PATCH;
 * docs/watches.md#events). Declared as the security of each event, so a receiver's generated code
 * knows which header proves the sender.
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

export function registerWebhookEvent(
  app: OpenAPIHono<AppEnv>,
  event: { type: string; tag: string; summary: string; schema: z.ZodType; answers: string },
): void {
  // Registered by the first event of the document; the same object again changes nothing.
  app.openAPIRegistry.registerComponent(
    'securitySchemes',
    signatureScheme.name,
    signatureScheme.scheme,
  );
  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: event.type,
    operationId: `${event.type.replace('.', '_')}_event`,
    tags: [event.tag],
    summary: event.summary,
    security: [{ [signatureScheme.name]: [] }],
    parameters: signatureHeaders,
    request: {
      body: { required: true, content: { 'application/json': { schema: event.schema } } },
    },
    responses: { 200: { description: event.answers } },
  });
}
