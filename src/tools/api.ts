import { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import { type AppEnv, type RegisteredRoute, registeredRoutes } from '../http/index.js';
import {
  addPageRoutes,
  type PageTool,
  pagesTag,
  type ResolverAdvice,
  type Site,
} from '../pages/index.js';
import type { DnsblZone, ListHealth, ServiceReadiness } from '../reputation/index.js';
import { addListsRoute, listsTag } from './lists.js';
import { addOpenApiDocument, documentTag } from './openapi-document.js';
import { tools, type ToolsDeps } from './registry.js';
import { shareTag, type ToolDefinition } from './common/index.js';
import { addToolIndex, indexTag, type ServedTool } from './tool-index.js';

/**
 * The API under the base path, built by walking the registry (src/tools/registry.ts): each tool
 * serves its routes at `/{name}/v1`, then the check page and the pages' files, GET /lists, the
 * tool index and the OpenAPI document, whose paths are relative to the base path (its `servers`).
 * The app mounts it at BASE_PATH.
 */

export interface ApiOptions {
  basePath: string;
  publicUrl?: string;
  site: Site;
  lists: () => ListHealth[];
  readiness: () => ServiceReadiness;
  /** What the check page tells the operator while no list is proven. */
  resolverAdvice: ResolverAdvice;
  /** The zone list the service asks, for the lists page's texts and links. */
  zones: readonly DnsblZone[];
}

export function createToolsApi(deps: ToolsDeps, options: ApiOptions): OpenAPIHono<AppEnv> {
  const api = new OpenAPIHono<AppEnv>({ strict: false });
  const served: ServedTool[] = tools.map((tool) => {
    const app = new OpenAPIHono<AppEnv>({ strict: false });
    (tool.serve as (app: OpenAPIHono<AppEnv>, deps: ToolsDeps) => void)(app, deps);
    api.route(`/${tool.name}/v1`, app);
    return { tool, routes: registeredRoutes(app) };
  });
  for (const tool of tools) (tool as ToolDefinition).webhooks?.(api);
  addPageRoutes(
    api,
    options.site,
    served
      .filter(({ tool }) => (tool as ToolDefinition).onCheckPage !== false)
      .map(({ tool, routes }) => pageToolOf(tool, routes)),
    { isReady: () => options.readiness().configured, advice: options.resolverAdvice },
  );
  addListsRoute(api, {
    lists: options.lists,
    readiness: options.readiness,
    site: options.site,
    zones: options.zones,
  });
  addToolIndex(api, options.basePath, served);
  addOpenApiDocument(api, {
    basePath: options.basePath,
    tools,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    tags: [
      ...tools.flatMap((tool) => [
        { name: tool.title, description: tool.description },
        // A tool whose answers are private (the reports) shares nothing.
        ...((tool as ToolDefinition).summarise === undefined
          ? []
          : [
              {
                name: shareTag(tool.title),
                description: `The badge, card and share page of a stored ${tool.title} result`,
              },
            ]),
      ]),
      listsTag,
      indexTag,
      pagesTag,
      documentTag,
    ],
  });
  return api;
}

/**
 * A tool as the check page offers it: its checks are its POST routes, in the order it registered
 * them; the form's field is the first field of the first check's body.
 */
function pageToolOf(
  tool: Pick<ToolDefinition, 'name' | 'submit' | 'needsLists'>,
  routes: readonly RegisteredRoute[],
): PageTool {
  const checks = routes.filter((route) => route.method === 'post');
  const body = checks[0]?.body as z.ZodObject | undefined;
  return {
    name: tool.name,
    field: Object.keys(body?.shape ?? {})[0] ?? 'target',
    checks: checks.map((route) => `${tool.name}/v1${route.path === '/' ? '' : route.path}`),
    submit: tool.submit,
    needsLists: tool.needsLists !== false,
  };
}
