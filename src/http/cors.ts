import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from './context.js';
import { securityHeaders } from './security-headers.js';

/**
 * CORS (DESIGN: CORS_ORIGINS): which browser origins may read the answers, and with them the
 * security headers every answer carries (security-headers.ts). The headers are worked
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

export function corsMiddleware(origins: readonly string[]): MiddlewareHandler<AppEnv> {
  const anyOrigin = origins.includes('*');
  const preflight = cors({
    origin: anyOrigin ? '*' : [...origins],
    exposeHeaders: ['Retry-After'],
  });
  const exposed = { 'Access-Control-Expose-Headers': 'Retry-After', ...securityHeaders };
  const forAnyOrigin = { 'Access-Control-Allow-Origin': '*', ...exposed };

  function headersFor(origin: string): Record<string, string> {
    if (anyOrigin) return forAnyOrigin;
    // RFC 9110 §12.5.5: the answer depends on Origin, so caches must key on it.
    const headers: Record<string, string> = { ...exposed, Vary: 'Origin' };
    if (origins.includes(origin)) headers['Access-Control-Allow-Origin'] = origin;
    return headers;
  }

  return async (c, next) => {
    if (c.req.method === 'OPTIONS') {
      // hono's cors() answers with a copy of these headers.
      for (const [name, value] of Object.entries(securityHeaders)) c.res.headers.set(name, value);
      return preflight(c, next);
    }
    const state: CorsState = { headers: headersFor(c.req.header('origin') ?? ''), sent: false };
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
