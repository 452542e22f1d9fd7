import { z } from '@hono/zod-openapi';
import { quotaStatusSchema } from '../../http/index.js';

/** Schemas and OpenAPI pieces shared by the tools' routes (docs/openapi.md); the error answers are src/http/error-responses.ts. */

export { quotaStatusSchema };

/** The result fields every POST adds to its tool's result. */
export const postFields = {
  token: z.string().openapi({
    description: 'Token for fetching the result by GET (128 random bits, base64url).',
    example: 'tZerZe3mpmn2SQJuHHQZDA',
  }),
  from_cache: z.boolean().openapi({ description: 'Whether the result came from cache.' }),
};

/** The security scheme of the captcha token, for the POST routes (docs/DESIGN.md: captcha). */
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

/** The body fields a captcha token may come in, besides the X-Captcha-Token header. */
export const captchaFields = {
  'smart-token': z.string().max(4096).optional().openapi({ description: 'Captcha token' }),
  captchaToken: z.string().max(4096).optional().openapi({ description: 'Captcha token (alias)' }),
  smart_token: z.string().max(4096).optional().openapi({ description: 'Captcha token (alias)' }),
};

/** Optional: `{}` lets a caller send no token while no captcha is due. */
/**
 * A sending domain's request fields, `domain` and its alias `target`: the domain and mail tools
 * take the same pair (paired with `requiredWithAlias(..., 'domain', 'target')`).
 */
export function domainFields(example: string) {
  return {
    domain: z.string().max(1024).optional().openapi({
      description:
        'The sending domain. Give it or its alias target; if both, the first non-empty one wins.',
      example,
    }),
    target: z
      .string()
      .max(1024)
      .optional()
      .openapi({ description: 'Alias of domain, used when domain is absent or empty' }),
  };
}

export const captchaSecurity = [{}, { [captchaScheme.name]: [] }];

/** The header, documented on each POST as well, for generators that ignore security schemes. */
export const captchaHeader = z.object({
  'X-Captcha-Token': z
    .string()
    .optional()
    .openapi({ description: 'Captcha token (see the captchaToken security scheme).' }),
});

/**
 * How a required field and its alias combine (docs/DESIGN.md: aliases; `firstNonEmpty` in aliases.ts
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
