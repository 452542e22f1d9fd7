import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, prefersHtml, serveRoute } from '../http/index.js';
import { listsPageResponse, type Site } from '../pages/index.js';
import {
  type DnsblZone,
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
  deps: {
    lists: () => ListHealth[];
    readiness: () => ServiceReadiness;
    site: Site;
    /** The zone list: what each list lists, its policy and links, for the HTML page. */
    zones: readonly DnsblZone[];
  },
): void {
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/lists',
      operationId: 'getLists',
      tags: [listsTag.name],
      summary: "Every configured blocklist's health: state, reason, self-test, answers, latency",
      description:
        'Whether the service can check (`configured`, with the operator’s `reason` when not) and, for each list, whether it counts now and why not: its last self-test (RFC 5782 test entries), its answers, timeouts and latency. A browser (Accept preferring text/html) gets the same as a page.',
      security: [],
      responses: {
        200: {
          description:
            'Health of every configured list: JSON, or for a browser (Accept preferring text/html) ' +
            'the same as an HTML page in English or Russian (`?lang=`), with what each list lists, ' +
            'its policy and links. Vary: Accept.',
          content: {
            'application/json': { schema: listsSchema },
            'text/html': { schema: z.string() },
          },
        },
        ...errorResponses('getLists', []),
      },
    }),
    async (c) => {
      const readiness = deps.readiness();
      if (prefersHtml(c.req.header('accept'))) {
        return listsPageResponse(c, deps.site, {
          readiness,
          lists: deps.lists(),
          zones: deps.zones,
        });
      }
      const { configured, reason } = readiness;
      c.header('Vary', 'Accept');
      return c.json({ configured, ...(reason ? { reason } : {}), lists: deps.lists() }, 200);
    },
  );
}
