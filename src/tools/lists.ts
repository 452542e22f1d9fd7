import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, serveRoute } from '../http/index.js';
import {
  type ListHealth,
  listHealthSchema,
  type ServiceReadiness,
  serviceReadinessSchema,
} from '../reputation/index.js';

/**
 * `GET {BASE_PATH}/lists`: every configured blocklist's health, the page an operator opens first
 * when results look wrong. Its fields and their meaning are the zone monitor's schemas
 * (src/reputation/lists/list-health-schemas.ts): the readiness and every list.
 */

const listsSchema = serviceReadinessSchema
  .extend({ lists: z.array(listHealthSchema) })
  .openapi('Lists');

export const listsTag = { name: 'Lists', description: 'The blocklists the service asks' };

export function addListsRoute(
  app: OpenAPIHono<AppEnv>,
  deps: { lists: () => ListHealth[]; readiness: () => ServiceReadiness },
): void {
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/lists',
      operationId: 'getLists',
      tags: [listsTag.name],
      summary: "Every configured blocklist's health: state, reason, self-test, answers, latency",
      security: [],
      responses: {
        200: {
          description: 'Health of every configured list',
          content: { 'application/json': { schema: listsSchema } },
        },
        ...errorResponses('getLists', []),
      },
    }),
    (c) => {
      const { configured, reason } = deps.readiness();
      return c.json({ configured, ...(reason ? { reason } : {}), lists: deps.lists() }, 200);
    },
  );
}
