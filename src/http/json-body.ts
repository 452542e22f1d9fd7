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
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: () => {
        throw new ApiError(
          'body_too_large',
          `the request body is larger than ${maxBodyBytes} bytes`,
        );
      },
    }),
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
