import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { ApiError, type ErrorCode } from './errors.js';

/**
 * POST bodies: JSON only (415 otherwise), small (413 past the limit, checked while reading, so a
 * large body is never buffered whole), well-formed (400 `invalid_json`), an object (400
 * `invalid_request`) and valid against the route's schema (400 `invalid_request`). Read, parsed
 * and validated once: the route's OpenAPI entry only documents the schema (measured: the
 * generated media-type gate and validator parsed the body a second time and cost a fifth of a
 * cached check).
 */

/** What `jsonBodyGate` and `readJsonBody` answer: routes that read a body document these. */
export const jsonBodyErrors = [
  'invalid_json',
  'invalid_request',
  'body_too_large',
  'unsupported_media_type',
] as const satisfies readonly ErrorCode[];

/** A check request is a target and a captcha token; a pool check adds at most a few hundred addresses. */
export const maxBodyBytes = 16 * 1024;

/** `application/json` or a `+json` type, with `name=value` parameters (RFC 6838 §4.2.8). */
const jsonMediaType = /^application\/([a-z.-]+\+)?json(;\s*[a-z0-9-]+=([^;]+))*$/i;

const tooLarge = () => {
  throw new ApiError('body_too_large', `the request body is larger than ${maxBodyBytes} bytes`);
};
const streamingLimit = bodyLimit({ maxSize: maxBodyBytes, onError: tooLarge });

/**
 * What is judged before the body is read: its media type and its size. A body with a
 * Content-Length is judged by it (Node's parser holds the body to that length); only a chunked
 * one goes through hono's bodyLimit, whose `c.req.raw.body` builds a full fetch Request
 * (AbortController, web stream): measured at 40 % of a cached check's CPU.
 */
export const jsonBodyGate: MiddlewareHandler = async (c, next) => {
  if (!jsonMediaType.test(c.req.header('content-type') ?? '')) {
    throw new ApiError(
      'unsupported_media_type',
      'the request body must be JSON (Content-Type: application/json)',
    );
  }
  return bodySizeGate(c, next);
};

/**
 * The size half of `jsonBodyGate`, for the one route whose body is a form (a watch's one-click
 * unsubscribe, RFC 8058): 413 `body_too_large` past `maxBodyBytes`.
 */
export const bodySizeGate: MiddlewareHandler = async (c, next) => {
  const declared = c.req.header('content-length');
  if (declared === undefined || c.req.header('transfer-encoding') !== undefined) {
    return streamingLimit(c, next);
  }
  if (Number.parseInt(declared, 10) > maxBodyBytes) tooLarge();
  await next();
};

/** The body that passed `jsonBodyGate`, parsed and validated against `schema`. */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<z.infer<S>> {
  // Read outside the try: the streaming limit's 413 is thrown while reading.
  const text = await c.req.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_json', 'the request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('invalid_request', 'the request body must be a JSON object');
  }
  const result = schema.safeParse(body);
  if (!result.success) throw invalidRequest(result.error);
  return result.data;
}

/** The first issue of a failed validation, with the path of the field it is about. */
export function invalidRequest(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return new ApiError('invalid_request', `${where}${issue?.message ?? 'invalid request'}`);
}
