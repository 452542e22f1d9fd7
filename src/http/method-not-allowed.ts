import type { Hono } from 'hono';
import { ApiError } from './errors.js';
import { methodsByPath, type RegisteredRoute, servedPath } from './route.js';

/**
 * RFC 9110 §15.5.6: a known path asked with a method it does not support answers 405 with the
 * methods it does support in `Allow`. Read from the documented routes: per path, a catch-all that
 * only the methods without a handler reach. A path that already has one (a tool puts its literal
 * paths' catch-alls before its `/{token}` route, which would read them as tokens) keeps it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function answerMethodNotAllowed(app: Hono<any>, routes: readonly RegisteredRoute[]): void {
  const answered = new Set(
    app.routes.filter((route) => route.method === 'ALL').map((route) => route.path),
  );
  for (const [path, methods] of methodsByPath(routes)) {
    const served = servedPath(path);
    if (answered.has(served)) continue;
    const allow = methods.join(', ');
    app.all(served, () => {
      throw new ApiError('method_not_allowed', `this path answers ${allow} only`, { Allow: allow });
    });
  }
}
