import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Every error the API answers, as a value that carries its HTTP meaning. One `onError` turns it
 * into the JSON body `{"status":"error","code":...,"error":...}` (DESIGN.md), so no handler
 * writes an error response by hand.
 */

export type ErrorCode =
  | 'invalid_json'
  | 'invalid_target'
  | 'invalid_request'
  | 'captcha_required'
  | 'captcha_failed'
  | 'not_found'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'quota_exceeded'
  | 'not_configured'
  | 'dns_unavailable'
  | 'busy'
  | 'store_unavailable'
  | 'internal';

const statusOf: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_json: 400,
  invalid_target: 400,
  invalid_request: 400,
  captcha_required: 403,
  captcha_failed: 403,
  not_found: 404,
  method_not_allowed: 405,
  body_too_large: 413,
  unsupported_media_type: 415,
  quota_exceeded: 429,
  not_configured: 503,
  dns_unavailable: 503,
  busy: 503,
  store_unavailable: 503,
  internal: 500,
};

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers (Retry-After, Allow). */
    readonly headers: Record<string, string> = {},
    /** Extra body fields (the quota status on POST routes). */
    readonly fields: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = statusOf[code];
  }

  /** The same error with more body fields. */
  with(fields: Record<string, unknown>): ApiError {
    return new ApiError(this.code, this.message, this.headers, { ...this.fields, ...fields });
  }
}

export function errorBody(error: ApiError): Record<string, unknown> {
  return { status: 'error', code: error.code, error: error.message, ...error.fields };
}
