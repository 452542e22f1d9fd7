import { z } from 'zod';
import { type ErrorCode, errorRecords } from './errors.js';
import { quotaStatusSchema } from './quota-status.js';

/**
 * The error answers of one operation, for its OpenAPI definition: grouped by status, each with the
 * operation's own error schema, whose `code` is an enum of exactly the codes that operation can
 * answer (`CheckIpError`, `GetIpCardError`, ...), so a generated client can switch on it. The
 * schema is never named `Error`, which would hide the language's own type in generated code.
 * 429 and 503 document `Retry-After` (RFC 9110 §10.2.3), 405 documents `Allow` (§15.5.6).
 */

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
  // In the table's order, whatever order the route's groups came in: one document for one set.
  const wanted = new Set([...codes, ...everywhere]);
  const all = (Object.keys(errorRecords) as ErrorCode[]).filter((code) => wanted.has(code));
  const schema = errorSchemaFor(operationId, all, options);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all) {
    const { status } = errorRecords[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
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
          description: statusCodes
            .map((code) => `${code}: ${errorRecords[code].meaning}`)
            .join('; '),
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
