import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import {
  type AppEnv,
  errorResponses,
  matchesEtag,
  notModifiedResponse,
  serveRoute,
} from '../http/index.js';
import { hex, utf8 } from '../lib/index.js';
import { aliasRule, captchaScheme } from './common/index.js';

/**
 * The OpenAPI 3.1 document, generated once from the route definitions of the API (docs/openapi.md):
 * every operation with an operationId and its `security`, every tag it uses declared with a
 * description, and `servers` holding the base path (behind PUBLIC_URL when set; without it the
 * base path alone, relative to where the document is served), so `paths` are relative to it and
 * a document fetched through a proxy never names a host the client cannot reach.
 */

export interface OpenApiDocumentOptions {
  basePath: string;
  publicUrl?: string;
  /** Every tag the routes use, with what it groups. */
  tags: { name: string; description: string }[];
  /** The tools of the registry, in its order: the description names each. */
  tools: readonly { name: string; title: string; description: string }[];
}

export const documentTag = { name: 'Document', description: 'This OpenAPI document' };

/**
 * The repository states no licence of its own (package.json is private): the API is offered
 * under no public licence, and the document says so (docs/openapi.md). The url is what client
 * tools require beside the name (OpenAPI 3.1 §4.8.4 asks for a url or an SPDX identifier, and
 * "all rights reserved" has no SPDX identifier): GitHub's page on what no licence means.
 */
const license = {
  name: 'Proprietary: all rights reserved',
  url: 'https://choosealicense.com/no-permission/',
};

/**
 * The document's description: what the service is, then each tool of the registry in a line (so a
 * tool added to the registry is named here without a word written for it), then the rules every
 * operation shares.
 */
function describeService(tools: OpenApiDocumentOptions['tools']): string {
  return [
    'Will mail from this address, domain or pool arrive, and if not, why? Blocklist (DNSBL) listings, reverse DNS, sending domains’ authentication and the mailbox providers’ requirements, each answered with a shareable token, an SVG badge and a PNG card; watches check a target again on a schedule and say when it changes. One tool per path under the base path:',
    '',
    ...tools.map((tool) => `- ${tool.title} (\`/${tool.name}/v1\`): ${tool.description}.`),
    '',
    ...sharedRules,
  ].join('\n');
}

const sharedRules = [
  'Every POST body is JSON. Errors are `{"status":"error","code":"...","error":"..."}`; the `code` is stable and never changes with the language, the `error` text is English, and each operation lists the codes it can answer. Errors of POST routes also carry the caller’s quota fields.',
  '',
  `Aliases: target|q (IP), domain|target (domain and mail), pool|domain (pool discover). Rule: ${aliasRule === 'exclusive' ? 'exactly one of the two may be given' : 'the first non-empty of the two is used'}.`,
  '',
  'Captcha: while a status answer says captchaRequired, each POST needs a token from the widget whose siteKey it gives, in the X-Captcha-Token header or the body field smart-token (aliases captchaToken, smart_token).',
];

type Document = ReturnType<OpenAPIHono['getOpenAPI31Document']>;
type PathItem = NonNullable<Document['paths']>[string];
type Operation = NonNullable<PathItem['get']>;

const contentLengthHeader = {
  'Content-Length': {
    description: 'The length of the body the GET would send (after compression, if any).',
    schema: { type: 'integer' as const, minimum: 0 },
  },
};

/**
 * The HEAD of a GET operation (RFC 9110 §9.3.2): every path that answers GET answers HEAD (hono
 * runs the GET route and drops the body; src/http/head.ts sets Content-Length), so the document
 * derives it from the GET, where it is answered: the same parameters, statuses and headers, no
 * body. `getIpBadge` → `headIpBadge`.
 */
function headOf(get: Operation): Operation {
  const { operationId = '', summary, responses = {}, ...rest } = get;
  const stem = operationId.replace(/^get(?=[A-Z])/, '');
  return {
    ...rest,
    operationId: `head${stem.charAt(0).toUpperCase()}${stem.slice(1)}`,
    ...(summary === undefined ? {} : { summary: `${summary}: headers only` }),
    description:
      'The GET’s status and headers without its body (RFC 9110 §9.3.2): Content-Length is the length of the body the GET would send.',
    responses: Object.fromEntries(
      Object.entries(responses as Record<string, Record<string, unknown>>).map(
        ([status, { content, ...response }]) => [
          status,
          content === undefined
            ? response
            : { ...response, headers: { ...(response.headers ?? {}), ...contentLengthHeader } },
        ],
      ),
    ),
  };
}

/** The document with a HEAD beside every GET. */
function withHead(document: Document): Document {
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path,
      item.get && !item.head ? { ...item, head: headOf(item.get) } : item,
    ]),
  );
  return { ...document, paths };
}

/** The document's own route, documented among the others. */
const documentRoute = createRoute({
  method: 'get',
  path: '/openapi.json',
  operationId: 'getOpenApiDocument',
  tags: [documentTag.name],
  summary: 'This OpenAPI 3.1 document',
  description:
    'Every operation of the service, generated from the definitions its routes are served by, with paths relative to `servers`; revalidate it with its ETag.',
  security: [],
  responses: {
    200: {
      description: 'The document; revalidate it with its ETag (Cache-Control: no-cache)',
      content: { 'application/json': { schema: z.object({}).passthrough() } },
    },
    304: notModifiedResponse,
    ...errorResponses('getOpenApiDocument', []),
  },
});

export function addOpenApiDocument(
  app: OpenAPIHono<AppEnv>,
  options: OpenApiDocumentOptions,
): void {
  app.openAPIRegistry.registerComponent(
    'securitySchemes',
    captchaScheme.name,
    captchaScheme.scheme,
  );
  const server = `${options.publicUrl ?? ''}${options.basePath}` || '/';
  let served: { json: string; etag: string } | undefined;
  serveRoute(app, documentRoute, async (c) => {
    if (served === undefined) {
      const json = JSON.stringify(
        withHead(
          app.getOpenAPI31Document({
            openapi: '3.1.0',
            info: {
              title: 'Reputation Tools API',
              version: '1.0.0',
              description: describeService(options.tools),
              license,
            },
            servers: [{ url: server }],
            tags: options.tags,
          }),
        ),
      );
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(json)));
      const hash = hex(digest.slice(0, 12));
      served = { json, etag: `"${hash}"` };
    }
    const headers = { ETag: served.etag, 'Cache-Control': 'no-cache' };
    if (matchesEtag(c.req.header('if-none-match'), served.etag)) {
      return c.body(null, 304, headers);
    }
    return c.body(served.json, 200, { ...headers, 'Content-Type': 'application/json' });
  });
}
