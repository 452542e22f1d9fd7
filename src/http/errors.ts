import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Every error the API answers, as a value that carries its HTTP meaning. One `onError` turns it
 * into the JSON body `{"status":"error","code":...,"error":...}` (docs/DESIGN.md), so no handler
 * writes an error response by hand.
 */

/** Each error code and the status it is answered with. */
export const statusOf = {
  invalid_json: 400,
  invalid_target: 400,
  invalid_request: 400,
  invalid_webhook: 400,
  manage_key_required: 401,
  captcha_required: 403,
  manage_key_wrong: 403,
  captcha_failed: 403,
  not_found: 404,
  method_not_allowed: 405,
  body_too_large: 413,
  unsupported_media_type: 415,
  quota_exceeded: 429,
  watch_limit: 429,
  test_pending: 429,
  not_configured: 503,
  dns_unavailable: 503,
  busy: 503,
  store_unavailable: 503,
  watch_capacity: 503,
  captcha_unavailable: 503,
  internal: 500,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof statusOf;

/**
 * RFC 9110 §10.2.3: how many seconds a 503 that does not know better asks the caller to wait.
 * The store and the DNS are usually back within seconds; a service that is not configured
 * waits for its next self-test round (docs/openapi.md). A card renderer that is busy, or a quota
 * that resets at midnight, says its own figure.
 */
const defaultRetryAfter: Partial<Record<ErrorCode, string>> = {
  store_unavailable: '5',
  dns_unavailable: '5',
  not_configured: '30',
  // Places free as watches end or are deleted: an hour is a fair wait, never a promise.
  watch_capacity: '3600',
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
    const retryAfter = defaultRetryAfter[code];
    if (retryAfter !== undefined && !('Retry-After' in headers))
      this.headers = { 'Retry-After': retryAfter, ...headers };
  }

  /** The same error with more body fields. */
  with(fields: Record<string, unknown>): ApiError {
    return new ApiError(this.code, this.message, this.headers, { ...this.fields, ...fields });
  }
}

export function errorBody(error: ApiError): Record<string, unknown> {
  return { status: 'error', code: error.code, error: error.message, ...error.fields };
}
