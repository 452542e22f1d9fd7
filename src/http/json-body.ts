import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from './errors.js';

/**
 * POST bodies: JSON only (415 otherwise), small (413 past the limit, checked while reading, so a
 * large body is never buffered whole), well-formed (400 `invalid_json`) and an object (400
 * `invalid_request`). The parsed body is left for the route's validator.
 */

/** A check request is a target and a captcha token; a pool check adds at most a few hundred addresses. */
export const maxBodyBytes = 16 * 1024;

/**
 * `application/json` or a `+json` type, with `name=value` parameters. Exactly the rule of the
 * media-type gate @hono/zod-openapi puts in front of a route's validator: what passes here must
 * pass there, or the gate's own 415 (an HTTPException, not one of our errors) answers instead.
 */
const jsonMediaType = /^application\/([a-z.-]+\+)?json(;\s*[a-z0-9-]+=([^;]+))*$/i;

const tooLarge = () => {
  throw new ApiError('body_too_large', `the request body is larger than ${maxBodyBytes} bytes`);
};
const streamingLimit = bodyLimit({ maxSize: maxBodyBytes, onError: tooLarge });

/**
 * A body with a Content-Length is judged by it before it is read (Node's parser holds the body to
 * that length); only a chunked one goes through hono's bodyLimit, whose `c.req.raw.body` builds a
 * full fetch Request (AbortController, web stream): measured at 40 % of a cached check's CPU.
 */
const declaredLengthOrStreamingLimit: MiddlewareHandler = async (c, next) => {
  const declared = c.req.header('content-length');
  if (declared === undefined || c.req.header('transfer-encoding') !== undefined) {
    return streamingLimit(c, next);
  }
  if (Number.parseInt(declared, 10) > maxBodyBytes) tooLarge();
  await next();
};

export function jsonBody(): MiddlewareHandler[] {
  return [
    async (c, next) => {
      const contentType = c.req.header('content-type') ?? '';
      if (!jsonMediaType.test(contentType)) {
        throw new ApiError(
          'unsupported_media_type',
          'the request body must be JSON (Content-Type: application/json)',
        );
      }
      await next();
    },
    declaredLengthOrStreamingLimit,
    async (c, next) => {
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
      await next();
    },
  ];
}
