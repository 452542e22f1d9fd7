import { z } from '@hono/zod-openapi';

/** Schemas shared by the tools' OpenAPI documents. */

export const quotaStatusSchema = z
  .object({
    configured: z.boolean().openapi({ description: 'The service is ready.' }),
    reason: z.string().optional().openapi({
      description:
        'Why the service is not ready and what the operator should change, in plain words; present only when configured is false.',
    }),
    dailyLimit: z.number().int().openapi({ description: 'Checks per calling IP address per day.' }),
    dailyRemaining: z.number().int().openapi({ description: 'Checks remaining today (UTC).' }),
    captchaRequired: z.boolean().openapi({ description: 'Whether a captcha token is needed.' }),
    siteKey: z
      .string()
      .optional()
      .openapi({ description: 'Public key of the captcha widget, when needed.' }),
  })
  .openapi('QuotaStatus');

export const errorSchema = z
  .object({
    status: z.literal('error'),
    code: z.string().openapi({ example: 'invalid_target' }),
    error: z.string().openapi({ example: '10.0.0.1 is not a public IPv4 address' }),
  })
  .openapi('Error');

export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorSchema } },
});

export const errorResponses = {
  400: errorResponse('invalid_json, invalid_target or invalid_request'),
  403: errorResponse('captcha_required or captcha_failed'),
  404: errorResponse('not_found'),
  413: errorResponse('body_too_large'),
  415: errorResponse('unsupported_media_type'),
  429: errorResponse('quota_exceeded (Retry-After: seconds to 00:00 UTC)'),
  503: errorResponse(
    'not_configured (see the status reason), dns_unavailable, store_unavailable or busy (Retry-After)',
  ),
} as const;

/** The result fields every POST adds to its tool's result. */
export const postFields = {
  token: z.string().openapi({ description: 'Token for fetching the result by GET.' }),
  from_cache: z.boolean().openapi({ description: 'Whether the result came from cache.' }),
};
