import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
import type { AppEnv } from '../http/index.js';

/**
 * What the base path itself answers (issue 17): an index of the tools, so the URL the start log
 * prints leads somewhere. A browser gets the check page instead (src/pages/routes.ts, added before
 * this route: it answers a client that prefers text/html and hands any other on to this index).
 */

const checkSchema = z.object({
  method: z.literal('POST'),
  path: z.string(),
  summary: z.string(),
});

const toolIndexSchema = z
  .object({
    name: z.string(),
    openapi: z.string().openapi({ description: 'Path of the OpenAPI document.' }),
    tools: z.array(
      z.object({
        tool: z.enum(['ip', 'domain', 'pool']),
        summary: z.string(),
        status: z.string().openapi({ description: 'GET: the caller’s quota status.' }),
        checks: z.array(checkSchema),
        result: z.string().openapi({ description: 'GET: a stored result by its token.' }),
        share: z.object({ page: z.string(), badge: z.string(), card: z.string() }),
      }),
    ),
  })
  .openapi('ToolIndex');

export type ToolIndex = z.infer<typeof toolIndexSchema>;

const tools = [
  {
    tool: 'ip',
    summary:
      'An IPv4 or IPv6 address or a host name on the blocklists, with reverse DNS and a score',
    checks: [
      { path: '', summary: 'Check an IPv4 or IPv6 address or a host name: {"target": "..."}' },
    ],
  },
  {
    tool: 'domain',
    summary: "A sending domain's sender IPs (SPF and MX), its lists and its DMARC record",
    checks: [{ path: '', summary: 'Check a sending domain: {"domain": "..."}' }],
  },
  {
    tool: 'pool',
    summary: 'The addresses behind a DNS pool name, then the chosen ones on the blocklists',
    checks: [
      { path: '/discover', summary: 'Find the addresses of a pool: {"pool": "..."}' },
      {
        path: '/check',
        summary: 'Check addresses a discover found: {"pool": "...", "ips": [...]}',
      },
    ],
  },
] as const;

/** The index of the tools under `basePath`, as paths (the Host header never builds a URL). */
export function toolIndex(basePath: string): ToolIndex {
  return {
    name: 'Reputation Tools API',
    openapi: `${basePath}/openapi.json`,
    tools: tools.map(({ tool, summary, checks }) => {
      const root = `${basePath}/${tool}/v1`;
      return {
        tool,
        summary,
        status: `${root}/status`,
        checks: checks.map((check) => ({
          method: 'POST' as const,
          path: `${root}${check.path}`,
          summary: check.summary,
        })),
        result: `${root}/{token}`,
        share: {
          page: `${root}/share/{token}`,
          badge: `${root}/share/{token}/badge.svg`,
          card: `${root}/share/{token}/card`,
        },
      };
    }),
  };
}

/** Each way the index can be written, by media type; the first is the default. */
const representations: Record<string, (c: Context<AppEnv>, index: ToolIndex) => Response> = {
  'application/json': (c, index) => c.json(index, 200),
};

export function addToolIndex(app: OpenAPIHono<AppEnv>, basePath: string): void {
  const index = toolIndex(basePath);
  const path = basePath || '/';
  const types = Object.keys(representations);
  // Documented here, served below as a plain route: its answer is whichever representation the
  // client accepts, not one typed response.
  app.openAPIRegistry.registerPath(
    createRoute({
      method: 'get',
      path,
      operationId: 'getToolIndex',
      tags: ['Index'],
      summary: 'The tools and their routes',
      responses: {
        200: {
          description:
            'The index of the tools; a client that prefers text/html (a browser) gets the check page',
          content: {
            'application/json': { schema: toolIndexSchema },
            'text/html': { schema: z.string() },
          },
        },
      },
    }),
  );
  app.get(path, (c) => {
    if (types.length === 1) return representations[types[0]!]!(c, index);
    c.header('Vary', 'Accept');
    const type = accepts(c, { header: 'Accept', supports: types, default: types[0]! });
    return representations[type]!(c, index);
  });
}
