import type { Context } from 'hono';
import { ApiError, type ErrorCode } from '../../http/index.js';
import type { Inbox, Inboxes } from '../../reports/index.js';
import { bearerToken } from '../common/index.js';

/**
 * An inbox's key on every route but the dashboard: `Authorization: Bearer <key>` (RFC 6750 §2.1).
 * None is a 401 with `WWW-Authenticate: Bearer` (RFC 6750 §3); a key that is not the inbox's a
 * 403, judged by comparing hashes in constant time (src/lib/secrets.ts), as a watch's manage key
 * is; an unknown id a 404. An inbox key is not a manage key: its codes are its own.
 */

export const inboxKeyScheme = {
  name: 'inboxKey',
  scheme: {
    type: 'http' as const,
    scheme: 'bearer',
    description: 'The key POST /reports/v1 answered once: Authorization: Bearer <key>.',
  },
};

export const inboxKeySecurity = [{ [inboxKeyScheme.name]: [] }];

/** What `keyedInbox` answers: every route behind an inbox's key documents these. */
export const inboxKeyErrors = [
  'inbox_key_required',
  'inbox_key_wrong',
  'not_found',
] as const satisfies readonly ErrorCode[];

export function inboxNotFound(): ApiError {
  return new ApiError('not_found', 'no reports inbox with this id (unknown or deleted)');
}

/** The inbox the request's `{id}` names, when the request holds its key; else the 401, 403 or 404. */
export async function keyedInbox(c: Context, inboxes: Inboxes): Promise<Inbox> {
  const key = bearerToken(c.req.header('authorization'));
  if (key === undefined) {
    throw new ApiError(
      'inbox_key_required',
      'send the inbox’s key as Authorization: Bearer <key>',
      { 'WWW-Authenticate': 'Bearer realm="reports"' },
    );
  }
  const checked = await inboxes.checkKey(c.req.param('id') ?? '', key);
  if (checked.ok) return checked.inbox;
  if (checked.why === 'not_found') throw inboxNotFound();
  throw new ApiError('inbox_key_wrong', 'this is not the inbox’s key');
}
