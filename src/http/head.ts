import type { MiddlewareHandler } from 'hono';

/**
 * RFC 9110 §9.3.2: a HEAD answer carries the headers the GET would, Content-Length included.
 * Hono answers HEAD by running the GET route and dropping the body, and the Node adapter only
 * counts bodies it writes: the length is taken here from the body before it is dropped (after
 * compression, which sits inside this middleware, so it is the length of what a GET would send).
 */
export const headContentLength: MiddlewareHandler = async (c, next) => {
  // Every other method passes straight through: no extra step on the cached-check path.
  if (c.req.method !== 'HEAD') return next();
  await next();
  if (c.res.headers.has('Content-Length') || c.res.body === null) return;
  const length = (await c.res.clone().arrayBuffer()).byteLength;
  c.res.headers.set('Content-Length', String(length));
};
