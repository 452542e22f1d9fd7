import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, serveRoute } from '../http/index.js';
import type { ListHealth, ServiceReadiness } from '../reputation/index.js';

/**
 * `GET {BASE_PATH}/lists`: every configured blocklist's health, the page an operator opens first
 * when results look wrong. States: `active` (proven honest, its answers count), `on_hold` (it
 * stopped answering; not asked until a background probe hears it again), `disabled` (it failed
 * its self-test or has not proven itself yet).
 */

/** One side of a list: the list's own fields (its IPv4 side, for an ip list), or its IPv6 side. */
const sideHealthFields = {
  state: z.enum(['active', 'on_hold', 'disabled']).openapi({
    description:
      'active: proven to answer honestly, its answers count; on_hold: it stopped answering and is ' +
      'not asked until a background probe hears it again; disabled: it failed its self-test or ' +
      'has not proven itself yet.',
  }),
  reason: z.string().openapi({ description: 'Why the list is in this state, in plain words.' }),
  test_entry: z.string().nullable().openapi({
    description:
      'The documented test entry its self-test asks (null: its operator documents none).',
    example: '127.0.0.2',
  }),
  last_self_test: z
    .string()
    .nullable()
    .openapi({ description: 'When its last self-test finished (ISO 8601), or null.' }),
  last_self_test_result: z.enum(['passed', 'failed', 'inconclusive']).nullable(),
  answers_last_hour: z.number().int().openapi({
    description: 'Queries to the list that got an answer (NXDOMAIN included) in the last hour.',
  }),
  timeouts_last_hour: z
    .number()
    .int()
    .openapi({ description: 'Queries to the list that got no answer in the last hour.' }),
  latency_ms: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }).openapi({
    description: 'Answer time on the wire over the last hour; null without answers.',
  }),
};

const ipv6SideSchema = z
  .object({
    zone: z.string().openapi({
      description: 'The zone asked about IPv6 addresses (nibble format, RFC 5782 §2.4).',
      example: 'zen.spamhaus.org',
    }),
    name: z.string(),
    source: z
      .string()
      .openapi({ description: "Where the list's operator documents IPv6 support." }),
    ...sideHealthFields,
  })
  .openapi('ListIpv6Side', {
    description:
      "The list's IPv6 side, proven on its own by its IPv6 test entry (::ffff:7f00:2 unless the " +
      "operator documents another); its traffic figures are its zone's, both families together " +
      "when that is the list's own zone.",
  });

const listHealthSchema = z
  .object({
    zone: z.string().openapi({ example: 'zen.spamhaus.org' }),
    name: z.string().openapi({ example: 'Spamhaus ZEN' }),
    type: z.enum(['ip', 'domain']),
    ...sideHealthFields,
    ipv6: ipv6SideSchema.nullable().openapi({
      description:
        'The IPv6 side of a list whose operator documents IPv6 support; null when the list does ' +
        'not cover IPv6 (its results for an IPv6 address say "does not cover IPv6").',
    }),
  })
  .openapi('ListHealth');

const listsSchema = z
  .object({
    configured: z.boolean().openapi({
      description: 'At least one list is proven to answer honestly: the tools can answer.',
    }),
    reason: z.string().optional().openapi({
      description: 'Why not configured, and what to change; present only when configured is false.',
    }),
    lists: z.array(listHealthSchema),
  })
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
