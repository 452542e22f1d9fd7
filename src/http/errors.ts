import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { utcDayOf } from './utc-day.js';

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
   * RFC 9110 §10.2.3: the seconds a 503 or a 429 that does not know better asks the caller to
   * wait. The store and the DNS are usually back within seconds; a service that is not
   * configured waits for its next self-test round (docs/openapi.md). `next-utc-day`: a daily
   * count, until 00:00 UTC; whoever refuses knows the time and says it (the route's clock), this
   * is the figure should it not. A card renderer that is busy or a captcha provider that fails
   * says its own figure.
   */
  retryAfterS?: number | 'next-utc-day';
}

/** Every 429 says when to come back (RFC 6585 §4 lets it; a client's back-off needs it). */
type WithRetryAfterOn429<T> = {
  [K in keyof T]: T[K] extends { status: 429 }
    ? T[K] extends { retryAfterS: number | 'next-utc-day' }
      ? T[K]
      : never
    : T[K];
};

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
    retryAfterS: 'next-utc-day',
  },
  watch_limit: {
    status: 429,
    meaning:
      'the caller, or its network, keeps WATCH_PER_CALLER or WATCH_PER_NETWORK live watches already (Retry-After: an hour; a DELETE frees a place at once)',
    // Places free as the caller's watches end or are deleted: an hour is a fair wait, as for
    // watch_capacity, never a promise.
    retryAfterS: 3600,
  },
  email_limit: {
    status: 429,
    meaning:
      'the day’s confirmation messages are used: for this watch, this mailbox, this caller, its network or the service (Retry-After: until 00:00 UTC)',
    retryAfterS: 'next-utc-day',
  },
  test_pending: {
    status: 429,
    meaning:
      'a test event of this watch waits for its answer (Retry-After: one WEBHOOK_TIMEOUT_MS)',
    // The route says one WEBHOOK_TIMEOUT_MS; the default's figure should it not.
    retryAfterS: 10,
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

// A 429 without a Retry-After figure does not compile.
errorRecords satisfies WithRetryAfterOn429<typeof errorRecords>;

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
    const wait = record.retryAfterS;
    if (wait !== undefined && !('Retry-After' in headers)) {
      const seconds =
        wait === 'next-utc-day'
          ? Math.ceil((utcDayOf(new Date()).endsAt - Date.now()) / 1000)
          : wait;
      this.headers = { 'Retry-After': String(seconds), ...headers };
    }
  }

  /** The same error with more body fields. */
  with(fields: Record<string, unknown>): ApiError {
    return new ApiError(this.code, this.message, this.headers, { ...this.fields, ...fields });
  }
}

export function errorBody(error: ApiError): Record<string, unknown> {
  return { status: 'error', code: error.code, error: error.message, ...error.fields };
}
