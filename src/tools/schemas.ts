import { z } from '@hono/zod-openapi';
import { quotaStatusSchema } from '../http/index.js';

/** Schemas and OpenAPI pieces shared by the tools' routes (docs/openapi.md). */

export { quotaStatusSchema };

export const errorSchema = z
  .object({
    status: z.literal('error'),
    code: z.string().openapi({
      description: 'Stable machine code; it never changes with the language.',
      example: 'invalid_target',
    }),
    error: z.string().openapi({
      description: 'What went wrong, in English.',
      example: '10.0.0.1 is not a public IPv4 address',
    }),
  })
  .openapi('Error');

/** A POST's error carries the caller's quota status, as its successful answer does. */
export const postErrorSchema = errorSchema
  .extend(quotaStatusSchema.partial().shape)
  .openapi('CheckError');

/** RFC 9110 §10.2.3: seconds to wait. */
export const retryAfter = {
  'Retry-After': {
    description: 'Seconds until the request may succeed (for a quota: until 00:00 UTC).',
    schema: { type: 'integer' as const, minimum: 0 },
  },
};

export const errorResponse = (description: string, schema: z.ZodType = errorSchema) => ({
  description,
  content: { 'application/json': { schema } },
});

export const errorResponses = {
  400: errorResponse('invalid_json, invalid_target or invalid_request'),
  404: errorResponse('not_found: unknown or expired token'),
  503: {
    ...errorResponse('store_unavailable: the store does not answer right now (Retry-After)'),
    headers: retryAfter,
  },
} as const;

/** Every error a check (POST) may answer, with the quota fields and Retry-After where sent. */
export const checkErrorResponses = {
  400: errorResponse('invalid_json, invalid_target or invalid_request', postErrorSchema),
  403: errorResponse('captcha_required or captcha_failed', postErrorSchema),
  413: errorResponse('body_too_large', postErrorSchema),
  415: errorResponse('unsupported_media_type', postErrorSchema),
  429: {
    ...errorResponse('quota_exceeded: the daily limit is used', postErrorSchema),
    headers: retryAfter,
  },
  503: {
    ...errorResponse(
      'not_configured (the status says why), dns_unavailable, store_unavailable, or busy (then with Retry-After)',
      postErrorSchema,
    ),
    headers: retryAfter,
  },
} as const;

/** The result fields every POST adds to its tool's result. */
export const postFields = {
  token: z.string().openapi({
    description: 'Token for fetching the result by GET (128 random bits, base64url).',
    example: 'tZerZe3mpmn2SQJuHHQZDA',
  }),
  from_cache: z.boolean().openapi({ description: 'Whether the result came from cache.' }),
};

/** The security scheme of the captcha token, for the POST routes (DESIGN.md: captcha). */
export const captchaScheme = {
  name: 'captchaToken',
  scheme: {
    type: 'apiKey' as const,
    in: 'header' as const,
    name: 'X-Captcha-Token',
    description:
      'The token of the captcha widget (provider and site key in every status answer). Also accepted in the body as smart-token, captchaToken or smart_token; the first non-empty one wins. Needed only while captchaRequired is true.',
  },
};

/** Optional: `{}` lets a caller send no token while no captcha is due. */
export const captchaSecurity = [{}, { [captchaScheme.name]: [] }];

/** The header, documented on each POST as well, for generators that ignore security schemes. */
export const captchaHeader = z.object({
  'X-Captcha-Token': z
    .string()
    .optional()
    .openapi({ description: 'Captcha token (see the captchaToken security scheme).' }),
});

/**
 * How a required field and its alias combine (DESIGN.md: aliases; `firstNonEmpty` in aliases.ts
 * applies it): `first-non-empty`, the first of the two that holds more than white space is used;
 * `exclusive`, exactly one may be given and both
 * is a 400. The OpenAPI document says which as `anyOf` (either or both) or `oneOf` (exactly one)
 * of the two `required` lists.
 */
export type AliasRule = 'first-non-empty' | 'exclusive';
export const aliasRule: AliasRule = 'first-non-empty';

export function requiredWithAlias<S extends z.ZodObject>(
  schema: S,
  field: string,
  alias: string,
  rule: AliasRule = aliasRule,
): S {
  const either = [{ required: [field] }, { required: [alias] }];
  const how =
    rule === 'exclusive'
      ? `Exactly one of ${field} and ${alias} must be given.`
      : `${field} or its alias ${alias} is required; when both are given, the first that holds more than white space (${field}, then ${alias}) is used.`;
  return schema.openapi({
    description: how,
    ...(rule === 'exclusive' ? { oneOf: either } : { anyOf: either }),
  }) as S;
}
