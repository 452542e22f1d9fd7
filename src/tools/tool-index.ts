import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
import { type AppEnv, errorResponses, type RegisteredRoute, serveRoute } from '../http/index.js';
import { snapshotOperations, type ToolDefinition } from './common/index.js';

/**
 * What the base path itself answers (docs/http-hardening.md#trailing-slashes-and-the-base-path): an
 * index of the tools, so the URL the start log prints leads somewhere. A browser gets the check
 * page instead (src/pages/routes.ts, added before this route: it answers a client that prefers
 * text/html and hands any other on to this index). Every path in it is read from the routes the
 * tools registered.
 */

export const indexTag = { name: 'Index', description: 'The tools and their routes' };

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
        tool: z.string(),
        summary: z.string(),
        status: z.string().optional().openapi({ description: 'GET: the caller’s quota status.' }),
        checks: z.array(checkSchema),
        result: z
          .string()
          .optional()
          .openapi({ description: 'GET: a stored result by its token.' }),
        share: z
          .object({ page: z.string(), badge: z.string(), card: z.string() })
          .partial()
          .optional(),
      }),
    ),
  })
  .openapi('ToolIndex');

export type ToolIndex = z.infer<typeof toolIndexSchema>;

/** A tool with the routes it registered, paths relative to its root (`/status`, `/{token}`). */
export interface ServedTool {
  tool: Pick<ToolDefinition, 'name' | 'title' | 'description' | 'submit'>;
  routes: RegisteredRoute[];
}

/** The index of the tools under `basePath`, as paths (the Host header never builds a URL). */
export function toolIndex(basePath: string, served: readonly ServedTool[]): ToolIndex {
  return {
    name: 'Reputation Tools API',
    openapi: `${basePath}/openapi.json`,
    tools: served.map(({ tool, routes }) => {
      const root = `${basePath}/${tool.name}/v1`;
      const operations = snapshotOperations(tool.title);
      const pathOf = (operationId: string) => {
        const route = routes.find((candidate) => candidate.operationId === operationId);
        return route && `${root}${route.path === '/' ? '' : route.path}`;
      };
      const share = {
        page: pathOf(operations.sharePage),
        badge: pathOf(operations.badge),
        card: pathOf(operations.card),
      };
      return withoutUndefined({
        tool: tool.name,
        summary: tool.description,
        status: pathOf(operations.status),
        // A POST on a templated path acts on one resource (a watch's test event), not a check.
        checks: routes
          .filter((route) => route.method === 'post' && !route.path.includes('{'))
          .map((route) => ({
            method: 'POST' as const,
            path: `${root}${route.path === '/' ? '' : route.path}`,
            summary: route.summary ?? '',
          })),
        result: pathOf(operations.result),
        share: Object.values(share).some(Boolean) ? withoutUndefined(share) : undefined,
      });
    }),
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** Each way the index can be written, by media type; the first is the default. */
const representations: Record<string, (c: Context<AppEnv>, index: ToolIndex) => Response> = {
  'application/json': (c, index) => c.json(index, 200),
};

/** Serves the index at `/` of the API (the base path), built from the tools' routes. */
export function addToolIndex(
  app: OpenAPIHono<AppEnv>,
  basePath: string,
  served: readonly ServedTool[],
): void {
  const index = toolIndex(basePath, served);
  const types = Object.keys(representations);
  // Its answer is whichever representation the client accepts, not one typed response.
  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/',
      operationId: 'getToolIndex',
      tags: [indexTag.name],
      summary: 'The tools and their routes',
      description:
        'Each tool of the service with what it does and the paths of its status, checks, stored results and share routes, relative to the base path. A browser (Accept preferring text/html) gets the check page here instead.',
      security: [],
      responses: {
        200: {
          description:
            'The index of the tools; a client that prefers text/html (a browser) gets the check page',
          content: {
            'application/json': { schema: toolIndexSchema },
            'text/html': { schema: z.string() },
          },
        },
        ...errorResponses('getToolIndex', []),
      },
    }),
    (c) => {
      if (types.length === 1) return representations[types[0]!]!(c, index);
      c.header('Vary', 'Accept');
      const type = accepts(c, { header: 'Accept', supports: types, default: types[0]! });
      return representations[type]!(c, index);
    },
  );
}
