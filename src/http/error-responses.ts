import { z } from 'zod';
import { type ErrorCode, statusOf } from './errors.js';
import { quotaStatusSchema } from './quota-status.js';

/**
 * The error answers of one operation, for its OpenAPI definition: grouped by status, each with the
 * operation's own error schema, whose `code` is an enum of exactly the codes that operation can
 * answer (`CheckIpError`, `GetIpCardError`, ...), so a generated client can switch on it. The
 * schema is never named `Error`, which would hide the language's own type in generated code.
 * 429 and 503 document `Retry-After` (RFC 9110 §10.2.3), 405 documents `Allow` (§15.5.6).
 */

/** What each code means, for the response descriptions. */
const meanings: Record<ErrorCode, string> = {
  invalid_json: 'invalid_json: the body is not JSON',
  invalid_target: 'invalid_target: the target is not one the tool can check',
  invalid_request: 'invalid_request: a field is missing or malformed',
  invalid_webhook:
    'invalid_webhook: webhook_url is not http(s), or names an address that is not public',
  manage_key_required:
    'manage_key_required: no Authorization: Bearer <manage_key> (WWW-Authenticate: Bearer)',
  manage_key_wrong: 'manage_key_wrong: the manage key is not this watch’s',
  watch_limit: 'watch_limit: the caller keeps WATCH_PER_CALLER live watches already',
  watch_capacity: 'watch_capacity: the service keeps WATCH_MAX live watches (Retry-After)',
  test_pending:
    'test_pending: a test event of this watch waits for its answer (Retry-After: one WEBHOOK_TIMEOUT_MS)',
  captcha_required: 'captcha_required: a captcha token is due (the status says which widget)',
  captcha_failed: 'captcha_failed: the captcha provider refused the token',
  not_found: 'not_found: unknown or expired token',
  method_not_allowed: 'method_not_allowed: the path answers only the methods in Allow',
  body_too_large: 'body_too_large',
  unsupported_media_type: 'unsupported_media_type: the body must be application/json',
  quota_exceeded: 'quota_exceeded: the daily limit is used (Retry-After: until 00:00 UTC)',
  not_configured: 'not_configured: no blocklist is proven to answer yet (the status says why)',
  dns_unavailable:
    'dns_unavailable: no DNS answer in time; the unit is given back when no list was asked (REFUNDS_PER_DAY)',
  busy: 'busy: too many cards being drawn, or too many open connections',
  store_unavailable: 'store_unavailable: the store does not answer right now',
  captcha_unavailable:
    'captcha_unavailable: the captcha provider fails, and the checks it let through unverified today are used up',
  internal: 'internal: a fault of the service',
};

/** RFC 9110 §10.2.3: seconds to wait. */
export const retryAfterHeader = {
  'Retry-After': {
    description: 'Seconds until the request may succeed (for a quota: until 00:00 UTC).',
    schema: { type: 'integer' as const, minimum: 0 },
  },
};

const allowHeader = {
  Allow: {
    description: 'The methods the path answers (RFC 9110 §10.2.1).',
    schema: { type: 'string' as const },
  },
};

/** Answered on every path for another method than its own (RFC 9110 §15.5.6). */
const everywhere: ErrorCode[] = ['method_not_allowed', 'busy'];

export interface ErrorResponseOptions {
  /** Errors of a check carry the caller's quota status, as its answer does. */
  withQuota?: boolean;
}

type ErrorResponse = {
  description: string;
  content: { 'application/json': { schema: z.ZodType } };
  headers?: typeof retryAfterHeader | typeof allowHeader;
};

/** `checkIp` -> `CheckIpError`. */
function schemaName(operationId: string): string {
  return `${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}Error`;
}

/** The error body of an operation that answers `codes`. */
export function errorSchemaFor(
  operationId: string,
  codes: readonly ErrorCode[],
  options: ErrorResponseOptions = {},
) {
  return z
    .object({
      status: z.literal('error'),
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]).meta({
        description: 'Stable machine code; it never changes with the language.',
      }),
      error: z.string().meta({ description: 'What went wrong, in English.' }),
      ...(options.withQuota ? quotaStatusSchema.partial().shape : {}),
    })
    .meta({ id: schemaName(operationId) });
}

/**
 * The error responses of the operation `operationId`, which answers `codes` (405 and 503 `busy`
 * come with every path): `{ 400: …, 405: …, 503: … }`.
 */
export function errorResponses(
  operationId: string,
  codes: readonly ErrorCode[],
  options: ErrorResponseOptions = {},
): Record<number, ErrorResponse> {
  const all = [...new Set([...codes, ...everywhere])];
  const schema = errorSchemaFor(operationId, all, options);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all)
    byStatus.set(statusOf[code], [...(byStatus.get(statusOf[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => {
      const headers =
        status === 405
          ? allowHeader
          : status === 429 || status === 503
            ? retryAfterHeader
            : undefined;
      return [
        status,
        {
          description: statusCodes.map((code) => meanings[code]).join('; '),
          content: { 'application/json': { schema } },
          ...(headers ? { headers } : {}),
        },
      ];
    }),
  );
}

/**
 * What an ETag of ours is: the hash of the bytes, strong; weak once the answer is compressed on
 * the way (the Node server's compression, or the edge's), since compressed bytes are another
 * representation of the same content (docs/openapi.md, HTTP manners). If-None-Match compares
 * weakly (RFC 9110 §13.1.2), so either form revalidates.
 */
const etagDescription =
  'A validator of the bytes (RFC 9110 §8.8.3): strong ("…") as sent uncompressed, weak (W/"…") when the answer is compressed (Content-Encoding). Send it back as If-None-Match, in either form.';

/** RFC 9110 §15.4.5: a validator that matched; the headers a fresh answer would carry. */
export const notModifiedResponse = {
  description: 'Not modified: If-None-Match matched the ETag.',
  headers: {
    ETag: { description: etagDescription, schema: { type: 'string' as const } },
    'Cache-Control': { schema: { type: 'string' as const } },
  },
};

/** The headers of an answer that never changes and is validated by its ETag. */
export const cacheableHeaders = {
  ETag: {
    description: etagDescription,
    schema: { type: 'string' as const },
  },
  'Cache-Control': {
    description: 'How long the answer may be kept.',
    schema: { type: 'string' as const },
  },
};
