import { z } from 'zod';

/**
 * The fields of every status endpoint and every POST response (the contract's names), as
 * the schema the OpenAPI document shows and the type the guard returns.
 */
export const quotaStatusSchema = z
  .object({
    configured: z.boolean().meta({ description: 'The service is ready.' }),
    reason: z.string().optional().meta({
      description:
        'Why the service is not ready and what the operator should change, in plain words; present only when configured is false.',
    }),
    dailyLimit: z.number().int().meta({ description: 'Checks per calling IP address per day.' }),
    dailyRemaining: z.number().int().meta({ description: 'Checks remaining today (UTC).' }),
    captchaRequired: z.boolean().meta({ description: 'Whether a captcha token is needed.' }),
    siteKey: z
      .string()
      .optional()
      .meta({ description: 'Public key of the captcha widget, when one is needed.' }),
  })
  .meta({ id: 'QuotaStatus' });

export type QuotaStatus = z.infer<typeof quotaStatusSchema>;
