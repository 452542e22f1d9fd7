/**
 * A key sent as `Authorization: Bearer <key>` (RFC 6750 §2.1; the scheme is case-insensitive,
 * RFC 9110 §11.1): a watch's manage key, a reports inbox's key, the operator's token.
 */

/** RFC 6750 §2.1: `Bearer` and a b64token. */
const bearer = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The bearer token of a request's Authorization header, if it carries one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return bearer.exec(authorization ?? '')?.[1];
}
