import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/index.js';
import { aliasRule, captchaScheme } from './schemas.js';

/**
 * The OpenAPI 3.1 document, generated once from the route definitions (docs/openapi.md): every
 * operation with an operationId, the captcha's security scheme, and `servers` from PUBLIC_URL, or
 * `/` (relative to where the document is served) without it, so a document fetched through a
 * proxy never names a host the client cannot reach.
 */

export interface OpenApiDocumentOptions {
  path: string;
  publicUrl?: string;
}

const description = [
  'Reputation of mail-sending infrastructure: DNSBL listings, reverse DNS and a score for an IPv4 address or host name, a sending domain, or the addresses of a DNS pool.',
  '',
  'Every POST body is JSON. Errors are `{"status":"error","code":"...","error":"..."}`; the `code` is stable and never changes with the language, the `error` text is English. Errors of POST routes also carry the caller’s quota fields.',
  '',
  `Aliases: target|q (IP), domain|target (domain), pool|domain (pool discover). Rule: ${aliasRule === 'exclusive' ? 'exactly one of the two may be given' : 'the first non-empty of the two is used'}.`,
  '',
  'Captcha: while a status answer says captchaRequired, each POST needs a token from the widget whose siteKey it gives, in the X-Captcha-Token header or the body field smart-token (aliases captchaToken, smart_token).',
].join('\n');

export function addOpenApiDocument(
  app: OpenAPIHono<AppEnv>,
  options: OpenApiDocumentOptions,
): void {
  app.openAPIRegistry.registerComponent(
    'securitySchemes',
    captchaScheme.name,
    captchaScheme.scheme,
  );
  let served: { json: string; etag: string } | undefined;
  app.get(options.path, async (c) => {
    if (served === undefined) {
      const json = JSON.stringify(
        app.getOpenAPI31Document({
          openapi: '3.1.0',
          info: { title: 'Reputation Tools API', version: '1.0.0', description },
          servers: [{ url: options.publicUrl ?? '/' }],
        }),
      );
      const digest = new Uint8Array(
        await crypto.subtle.digest('SHA-256', new TextEncoder().encode(json)),
      );
      const hash = [...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
      served = { json, etag: `"${hash}"` };
    }
    const headers = { ETag: served.etag, 'Cache-Control': 'no-cache' };
    if (c.req.header('if-none-match')?.replace(/^W\//, '') === served.etag) {
      return c.body(null, 304, headers);
    }
    return c.body(served.json, 200, { ...headers, 'Content-Type': 'application/json' });
  });
}
