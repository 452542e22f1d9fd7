import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Handler, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';

/**
 * Every route is written once, as a `createRoute()` definition: `serveRoute` puts it in the
 * OpenAPI registry and serves it at the path the definition names (`{token}` becomes hono's
 * `:token`). It adds no validator: each handler reads its own input the way the service has
 * chosen (a body read once by readJsonBody, any string taken as a token, a repeated query
 * parameter read as its first value; docs/openapi.md), so the definition documents and routes.
 * Whatever needs the list of routes (the tool index, the 405 answers, the CORS preflight, the
 * tests' documented-schema lookup) reads the registry: no path is written twice.
 */

/** A route as the registry holds it: the method in lower case, the path in OpenAPI form. */
export interface RegisteredRoute {
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  /** The schema of a JSON body, where the route takes one. */
  body?: unknown;
}

/** `/share/{token}/card` as hono routes it: `/share/:token/card`. */
export function servedPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

type RouteHandlers = [...MiddlewareHandler<AppEnv>[], Handler<AppEnv>];

/** Documents `route` and serves it with `handlers`; returns the definition for its readers. */
export function serveRoute<R extends RouteConfig>(
  app: OpenAPIHono<AppEnv>,
  route: R,
  ...handlers: RouteHandlers
): R {
  app.openAPIRegistry.registerPath(route);
  // hono's overloads type each handler count apart; the spread is the same call.
  (app.on as (method: string, path: string, ...handlers: RouteHandlers) => unknown)(
    route.method.toUpperCase(),
    servedPath(route.path),
    ...handlers,
  );
  return route;
}

/** Every route `app` has documented so far, in registration order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function registeredRoutes(app: OpenAPIHono<any>): RegisteredRoute[] {
  return app.openAPIRegistry.definitions.flatMap((definition) =>
    definition.type === 'route'
      ? [
          {
            method: definition.route.method,
            path: definition.route.path,
            ...(definition.route.operationId ? { operationId: definition.route.operationId } : {}),
            ...(definition.route.summary ? { summary: definition.route.summary } : {}),
            ...bodyOf(definition.route),
          },
        ]
      : [],
  );
}

function bodyOf(route: RouteConfig): { body?: unknown } {
  const content = route.request?.body?.content?.['application/json'];
  const schema = content && 'schema' in content ? content.schema : undefined;
  return schema === undefined ? {} : { body: schema };
}

/**
 * The methods each path answers, as `Allow` names them (RFC 9110 §10.2.1): HEAD wherever GET is
 * (hono answers it from the GET route).
 */
export function methodsByPath(routes: readonly RegisteredRoute[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const { method, path } of routes) {
    const methods = byPath.get(path) ?? [];
    const upper = method.toUpperCase();
    if (!methods.includes(upper)) methods.push(upper);
    if (upper === 'GET' && !methods.includes('HEAD')) methods.push('HEAD');
    byPath.set(path, methods);
  }
  return byPath;
}

/**
 * The methods a request path answers, read from the routes: a literal path before a templated
 * one (`/pool/v1/discover` is not a token), a trailing slash as the path itself (the app is not
 * strict: docs/http-hardening.md#trailing-slashes-and-the-base-path). Empty for a path no route
 * serves.
 */
export function methodsMatcher(routes: readonly RegisteredRoute[]): (path: string) => string[] {
  const entries = [...methodsByPath(routes)].map(([template, methods]) => ({
    templated: template.includes('{'),
    pattern: new RegExp(
      `^${template
        .replace(/\/$/, '')
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{[^}]+\}/g, '[^/]+')}/?$`,
    ),
    methods,
  }));
  entries.sort((a, b) => Number(a.templated) - Number(b.templated));
  return (path) => entries.find((entry) => entry.pattern.test(path))?.methods ?? [];
}
