import type { MiddlewareHandler } from 'hono';
import { ApiError, type AppEnv, type ErrorCode } from '../../http/index.js';
import type { Watches } from '../../watch/index.js';
import { bearerToken } from '../common/index.js';

export { bearerToken } from '../common/index.js';

/**
 * The manage key of PATCH, DELETE and the test event: `Authorization: Bearer <manage_key>`
 * (RFC 6750 §2.1; the scheme is case-insensitive, RFC 9110 §11.1). None is a 401 with
 * `WWW-Authenticate: Bearer` (RFC 6750 §3); a key that is not the watch's a 403, judged by
 * comparing hashes in constant time (src/watch/model/secrets.ts); an unknown or ended watch a 404.
 */

export const manageKeyScheme = {
  name: 'manageKey',
  scheme: {
    type: 'http' as const,
    scheme: 'bearer',
    description: 'The manage_key POST /watch/v1 answered once: Authorization: Bearer <manage_key>.',
  },
};

/** What `requireManageKey` answers: routes behind a manage key document these. */
export const manageKeyErrors = [
  'manage_key_required',
  'manage_key_wrong',
  'not_found',
] as const satisfies readonly ErrorCode[];

/** What `holdsManageKey` answers: a route where the key is optional documents these. */
export const heldKeyErrors = [
  'manage_key_wrong',
  'not_found',
] as const satisfies readonly ErrorCode[];

export const manageKeySecurity = [{ [manageKeyScheme.name]: [] }];

/**
 * Whether the request proves it holds the watch's manage key: false without an Authorization
 * header; a key that is not the watch's is the 403 it is everywhere else.
 */
export async function holdsManageKey(
  watches: Watches,
  id: string,
  authorization: string | undefined,
): Promise<boolean> {
  const key = bearerToken(authorization);
  if (key === undefined) return false;
  const check = await watches.checkManageKey(id, key);
  if (check === 'not_found') throw watchNotFound();
  if (check === 'wrong')
    throw new ApiError('manage_key_wrong', 'this is not the watch’s manage key');
  return true;
}

export function requireManageKey(watches: Watches): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = bearerToken(c.req.header('authorization'));
    if (key === undefined) {
      throw new ApiError(
        'manage_key_required',
        'send the manage key as Authorization: Bearer <manage_key>',
        { 'WWW-Authenticate': 'Bearer realm="watch"' },
      );
    }
    const check = await watches.checkManageKey(c.req.param('id') ?? '', key);
    if (check === 'not_found') throw watchNotFound();
    if (check === 'wrong')
      throw new ApiError('manage_key_wrong', 'this is not the watch’s manage key');
    await next();
  };
}

export function watchNotFound(): ApiError {
  return new ApiError('not_found', 'no watch with this id (unknown, deleted or ended)');
}
