import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from './context.js';
import { securityHeaders } from './security-headers.js';

/**
 * CORS (DESIGN: CORS_ORIGINS): which browser origins may read the answers, and with them the
 * security headers and the request id every answer carries (security-headers.ts, X-Request-Id:
 * docs/operations.md). The headers are worked
 * out before the route runs and added to its response afterwards, unless the route put them in
 * itself with `jsonResponse`, as the cached paths do. Both measured on a cached check: a response
 * whose headers are a plain object takes @hono/node-server's fast path, while headers set with
 * `c.header()` go through a fetch `Headers` (a fifth of the CPU); hono's own cors() sets them on
 * `c.res` before the route runs, which rebuilds the route's response as a full fetch Response
 * with a web-stream body (two fifths). hono's cors() answers the preflights.
 */

export interface CorsState {
  headers: Record<string, string>;
  /** Set by `jsonResponse` when the headers are already in the response. */
  sent: boolean;
}

/**
 * How long a browser may keep a preflight's answer (RFC 9110 has none; Fetch §3.2.3): the
 * methods of a path change only with a new release. Chromium keeps it at most 2 hours.
 */
export const preflightMaxAgeS = 7200;

/** The headers a browser's script may read besides the safelisted ones (Fetch §3.2.5). */
const exposedHeaders = ['Retry-After', 'X-Request-Id'];

/**
 * The CORS and security headers of an answer to a request from `origin`: the middleware below
 * adds them to every route's answer, and an answer written outside the app (the Node server's
 * refusal of a connection past its limit, src/node/connections.ts) carries the same.
 */
export function corsHeaders(
  origins: readonly string[],
): (origin: string) => Record<string, string> {
  const anyOrigin = origins.includes('*');
  const exposed = {
    'Access-Control-Expose-Headers': exposedHeaders.join(', '),
    ...securityHeaders,
  };
  const forAnyOrigin = { 'Access-Control-Allow-Origin': '*', ...exposed };
  return (origin) => {
    if (anyOrigin) return forAnyOrigin;
    // RFC 9110 §12.5.5: the answer depends on Origin, so caches must key on it.
    const headers: Record<string, string> = { ...exposed, Vary: 'Origin' };
    if (origins.includes(origin)) headers['Access-Control-Allow-Origin'] = origin;
    return headers;
  };
}

/**
 * `methodsOf` names the methods a path answers (read from the documented routes): a preflight
 * lists only those, so a browser learns from it what the 405 would say.
 */
export function corsMiddleware(
  origins: readonly string[],
  methodsOf: (path: string) => string[],
): MiddlewareHandler<AppEnv> {
  const anyOrigin = origins.includes('*');
  const preflight = cors({
    origin: anyOrigin ? '*' : [...origins],
    exposeHeaders: exposedHeaders,
    allowMethods: (_origin, c) => methodsOf(c.req.path),
    maxAge: preflightMaxAgeS,
  });
  const headersFor = corsHeaders(origins);

  return async (c, next) => {
    const requestId = c.get('requestId');
    if (c.req.method === 'OPTIONS') {
      // hono's cors() answers with a copy of these headers.
      for (const [name, value] of Object.entries(securityHeaders)) c.res.headers.set(name, value);
      if (requestId) c.res.headers.set('X-Request-Id', requestId);
      return preflight(c, next);
    }
    const headers = headersFor(c.req.header('origin') ?? '');
    const state: CorsState = {
      headers: requestId ? { ...headers, 'X-Request-Id': requestId } : headers,
      sent: false,
    };
    c.set('cors', state);
    await next();
    if (state.sent) return;
    for (const [name, value] of Object.entries(state.headers)) {
      if (name === 'Vary') c.res.headers.append(name, value);
      else c.res.headers.set(name, value);
    }
  };
}

/** A 200 with JSON text, the CORS headers in it, on the adapter's fast path. */
export function jsonResponse(c: Context<AppEnv>, json: string): Response {
  const state = c.get('cors');
  if (state) state.sent = true;
  return new Response(json, {
    status: 200,
    headers: { 'Content-Type': 'application/json', ...state?.headers },
  });
}
