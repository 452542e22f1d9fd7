import type { Hono } from 'hono';
import { ApiError } from './errors.js';

/**
 * RFC 9110 §15.5.6: a known path asked with a method it does not support answers 405 with the
 * methods it does support in `Allow`. Called once every route is registered: it adds, per path, a
 * catch-all that only the methods without a handler reach.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function answerMethodNotAllowed(app: Hono<any>): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    methodsByPath.set(route.path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods].join(', ');
    app.all(path, () => {
      throw new ApiError('method_not_allowed', `this path answers ${allow} only`, { Allow: allow });
    });
  }
}
