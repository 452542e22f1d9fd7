import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ZodType } from 'zod';

/**
 * The drift check of docs/openapi.md: a JSON answer must parse with the zod schema its route
 * documents for its status (a 200 with the result's schema, an error with the operation's own
 * error schema, whose `code` enum names the codes it may answer), and parsing must not drop
 * anything (zod objects strip unknown keys, so a field the code sends and the schema does not name
 * shows up as a difference). Runs on Node and inside workerd alike: no Node module here.
 */

interface RouteDefinition {
  type: string;
  route?: {
    method: string;
    path: string;
    responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  };
}

/** The route documented for `method path`, the literal path before a templated one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function documentedRoute(app: OpenAPIHono<any>, method: string, path: string) {
  const routes = (app.openAPIRegistry.definitions as RouteDefinition[])
    .filter((definition) => definition.type === 'route' && definition.route)
    .map((definition) => definition.route!)
    .filter((route) => route.method === method.toLowerCase());
  const pattern = (template: string) =>
    new RegExp(
      `^${template
        .replace(/\/$/, '')
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{[^}]+\}/g, '[^/]+')}/?$`,
    );
  const bare = path.replace(/(.)\/$/, '$1');
  return (
    routes.find((candidate) => candidate.path === bare) ??
    routes.find((candidate) => pattern(candidate.path).test(path))
  );
}

/** The schema documented for a JSON answer of `method path` with `status` (200 by default). */
export function documentedSchema(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  app: OpenAPIHono<any>,
  method: string,
  path: string,
  status = 200,
) {
  return documentedRoute(app, method, path)?.responses[String(status)]?.content?.[
    'application/json'
  ]?.schema as ZodType | undefined;
}

/**
 * Checks a JSON answer against its route's documentation: the route must document its status
 * with a JSON body (a 500 is a fault, documented nowhere), and the body must be exactly what the
 * schema says. An answer of no documented route (an unknown path's 404) is not checked.
 */
export function assertAnswerDocumented(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  app: OpenAPIHono<any>,
  method: string,
  path: string,
  status: number,
  body: unknown,
): void {
  const route = documentedRoute(app, method, path);
  if (!route || status === 500) return;
  const schema = documentedSchema(app, method, path, status);
  if (!schema) throw new Error(`${method} ${path}: status ${status} is not documented as JSON`);
  assertDocumented(schema, body, `${method} ${path} (${status})`);
}

/** Throws, naming what differs, when `body` is not exactly what `schema` documents. */
export function assertDocumented(schema: ZodType, body: unknown, where: string): void {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new Error(`${where}: the answer does not match its schema: ${parsed.error.message}`);
  }
  const dropped = undocumented(body, parsed.data);
  if (dropped.length > 0) {
    throw new Error(
      `${where}: the answer has fields its schema does not document: ${dropped.join(', ')}`,
    );
  }
}

/** Where `kept` (the parsed answer) lacks or changed what `sent` held. */
function undocumented(sent: unknown, kept: unknown, path = ''): string[] {
  if (typeof sent !== 'object' || sent === null || typeof kept !== 'object' || kept === null)
    return Object.is(sent, kept) ? [] : [path || '(root)'];
  return Object.entries(sent).flatMap(([key, value]) =>
    key in kept
      ? undocumented(value, (kept as Record<string, unknown>)[key], `${path}.${key}`)
      : [`${path}.${key}`],
  );
}
