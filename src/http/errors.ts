import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Every error the API answers, as a value that carries its HTTP meaning. One `onError` turns it
 * into the JSON body `{"status":"error","code":...,"error":...}` (docs/DESIGN.md), so no handler
 * writes an error response by hand.
 */

interface ErrorRecord {
  status: ContentfulStatusCode;
  /** What the code means, for the OpenAPI responses' descriptions. */
  meaning: string;
  /**
   * RFC 9110 §10.2.3: the seconds a 503 that does not know better asks the caller to wait. The
   * store and the DNS are usually back within seconds; a service that is not configured waits
   * for its next self-test round (docs/openapi.md). A card renderer that is busy, a quota that
   * resets at midnight or a captcha provider that fails says its own figure.
   */
  retryAfterS?: number;
}

/** Every error code: the status it is answered with, what it means, and how long to wait. */
export const errorRecords = {
  invalid_json: { status: 400, meaning: 'the body is not JSON' },
  invalid_target: { status: 400, meaning: 'the target is not one the tool can check' },
  invalid_request: { status: 400, meaning: 'a field is missing or malformed' },
  invalid_webhook: {
    status: 400,
    meaning: 'webhook_url is not http(s), or names an address that is not public',
  },
  invalid_email: {
    status: 400,
    meaning: 'email is not one plain address at a public domain name',
  },
  invalid_report: {
    status: 400,
    meaning:
      'the upload is not a report the service reads: not a DMARC aggregate or TLS report, a damaged archive, XML with a DOCTYPE or entities, a failure report',
  },
  email_unavailable: {
    // RFC 9110 §15.5.21: the request is well-formed, and this service cannot act on it.
    status: 422,
    meaning:
      'the service sends no e-mail: its operator has not set SMTP_URL (or, on Workers, set it to port 25)',
  },
  report_domain_mismatch: {
    // RFC 9110 §15.5.21: a well-formed report this inbox cannot take.
    status: 422,
    meaning:
      'a report of the upload is about another domain than the inbox’s (or a subdomain of it); nothing of the upload was kept',
  },
  manage_key_required: {
    status: 401,
    meaning: 'no Authorization: Bearer <manage_key> (WWW-Authenticate: Bearer)',
  },
  inbox_key_required: {
    status: 401,
    meaning: 'no Authorization: Bearer <key> of the reports inbox (WWW-Authenticate: Bearer)',
  },
  captcha_required: {
    status: 403,
    meaning: 'a captcha token is due (the status says which widget)',
  },
  manage_key_wrong: { status: 403, meaning: 'the manage key is not this watch’s' },
  inbox_key_wrong: { status: 403, meaning: 'the key is not this reports inbox’s' },
  email_code_wrong: {
    status: 403,
    meaning: 'the code of the e-mail link is not the one sent for this watch’s address',
  },
  captcha_failed: { status: 403, meaning: 'the captcha provider refused the token' },
  not_found: {
    status: 404,
    meaning: 'nothing under this name: an unknown or expired token, no live watch, no such file',
  },
  method_not_allowed: {
    status: 405,
    meaning: 'the path answers only the methods in Allow',
  },
  email_link_expired: {
    // RFC 9110 §15.5.11: gone for good; PATCH the same email to be sent a new link.
    status: 410,
    meaning: 'the confirmation link is past its 24 hours',
  },
  body_too_large: { status: 413, meaning: 'the body is larger than the service accepts' },
  report_too_large: {
    status: 413,
    meaning:
      'the upload, or what its gzip or zip expands to, is larger than REPORTS_MAX_BYTES, or holds more than 100,000 records',
  },
  unsupported_media_type: {
    status: 415,
    meaning:
      'the body must be application/json; a report upload one of the report types (application/xml, text/xml, application/gzip, application/zip, application/tlsrpt+json, application/tlsrpt+gzip, application/json, message/rfc822)',
  },
  quota_exceeded: {
    status: 429,
    meaning: 'the daily limit is used (Retry-After: until 00:00 UTC)',
  },
  watch_limit: {
    status: 429,
    meaning: 'the caller keeps WATCH_PER_CALLER live watches already',
  },
  email_limit: {
    status: 429,
    meaning:
      'three confirmation messages went to this address, or from this caller, today (Retry-After: until 00:00 UTC)',
  },
  test_pending: {
    status: 429,
    meaning:
      'a test event of this watch waits for its answer (Retry-After: one WEBHOOK_TIMEOUT_MS)',
  },
  not_configured: {
    status: 503,
    meaning: 'no blocklist is proven to answer yet (the status says why)',
    retryAfterS: 30,
  },
  dns_unavailable: {
    status: 503,
    meaning:
      'no DNS answer in time; the unit is given back when no list was asked (REFUNDS_PER_DAY)',
    retryAfterS: 5,
  },
  busy: { status: 503, meaning: 'too many cards being drawn, or too many open connections' },
  store_unavailable: {
    status: 503,
    meaning: 'the store does not answer right now',
    retryAfterS: 5,
  },
  watch_capacity: {
    status: 503,
    meaning: 'the service keeps WATCH_MAX live watches (Retry-After)',
    // Places free as watches end or are deleted: an hour is a fair wait, never a promise.
    retryAfterS: 3600,
  },
  captcha_unavailable: {
    status: 503,
    meaning:
      'the captcha provider fails, and the checks it let through unverified today are used up',
    // A provider outage is short.
    retryAfterS: 60,
  },
  internal: { status: 500, meaning: 'a fault of the service' },
} as const satisfies Record<string, ErrorRecord>;

export type ErrorCode = keyof typeof errorRecords;

/** The store did not answer: what every route that reads or writes it may answer. */
export const storeErrors = ['store_unavailable'] as const satisfies readonly ErrorCode[];

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
    const record: ErrorRecord = errorRecords[code];
    this.status = record.status;
    if (record.retryAfterS !== undefined && !('Retry-After' in headers))
      this.headers = { 'Retry-After': String(record.retryAfterS), ...headers };
  }

  /** The same error with more body fields. */
  with(fields: Record<string, unknown>): ApiError {
    return new ApiError(this.code, this.message, this.headers, { ...this.fields, ...fields });
  }
}

export function errorBody(error: ApiError): Record<string, unknown> {
  return { status: 'error', code: error.code, error: error.message, ...error.fields };
}
