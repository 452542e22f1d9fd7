import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/index.js';
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

export function createListsRoute(deps: {
  lists: () => ListHealth[];
  readiness: () => ServiceReadiness;
}) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/lists',
      operationId: 'getLists',
      tags: ['Lists'],
      summary: "Every configured blocklist's health: state, reason, self-test, answers, latency",
      responses: {
        200: {
          description: 'Health of every configured list',
          content: { 'application/json': { schema: listsSchema } },
        },
      },
    }),
    (c) => {
      const { configured, reason } = deps.readiness();
      return c.json({ configured, ...(reason ? { reason } : {}), lists: deps.lists() }, 200);
    },
  );
  return app;
}
