import type { OpenAPIHono } from '@hono/zod-openapi';
import { isDeepStrictEqual } from 'node:util';
import type { ZodType } from 'zod';

/**
 * The drift check of docs/openapi.md: a 200 JSON answer must parse with the zod schema its route
 * is documented with, and parsing must not drop anything (zod objects strip unknown keys, so a
 * field the code sends and the schema does not name shows up as a difference).
 */

interface RouteDefinition {
  type: string;
  route?: {
    method: string;
    path: string;
    responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  };
}

/** The schema documented for a 200 JSON answer of `method path`, the literal path first. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function documentedSchema(app: OpenAPIHono<any>, method: string, path: string) {
  const routes = (app.openAPIRegistry.definitions as RouteDefinition[])
    .filter((definition) => definition.type === 'route' && definition.route)
    .map((definition) => definition.route!)
    .filter((route) => route.method === method.toLowerCase());
  const pattern = (template: string) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
  const route =
    routes.find((candidate) => candidate.path === path) ??
    routes.find((candidate) => pattern(candidate.path).test(path));
  return route?.responses['200']?.content?.['application/json']?.schema as ZodType | undefined;
}

/** Throws, naming what differs, when `body` is not exactly what `schema` documents. */
export function assertDocumented(schema: ZodType, body: unknown, where: string): void {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new Error(`${where}: the answer does not match its schema: ${parsed.error.message}`);
  }
  if (!isDeepStrictEqual(parsed.data, body)) {
    throw new Error(
      `${where}: the answer has fields its schema does not document: ${undocumented(body, parsed.data).join(', ')}`,
    );
  }
}

function undocumented(sent: unknown, kept: unknown, path = ''): string[] {
  if (typeof sent !== 'object' || sent === null || typeof kept !== 'object' || kept === null)
    return isDeepStrictEqual(sent, kept) ? [] : [path || '(root)'];
  return Object.entries(sent).flatMap(([key, value]) =>
    key in kept
      ? undocumented(value, (kept as Record<string, unknown>)[key], `${path}.${key}`)
      : [`${path}.${key}`],
  );
}
