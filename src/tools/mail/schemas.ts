import { z } from '@hono/zod-openapi';
import { isSelector, mailCheckResultSchema, maxCallerSelectors } from '../../reputation/index.js';
import {
  captchaFields,
  domainFields,
  postFields,
  quotaStatusSchema,
  requiredWithAlias,
} from '../common/index.js';
import type { SmtpProbeState } from './probe-state.js';

/** The mail tool's request and answer bodies: the result itself is src/reputation/results/. */

/**
 * What the service itself checks: the demo world's mail domain (`npm run demo`), whose MX hosts
 * answer on loopback and whose DKIM key is at Google Workspace's selector.
 */
const exampleDomain = 'demo-mail.net';
const exampleSelectors = ['google'];

export const mailStoredResult = mailCheckResultSchema
  .extend({ token: postFields.token })
  .openapi('MailStoredResult');

export const mailCheckResponse = mailCheckResultSchema
  .extend({ ...postFields, ...quotaStatusSchema.shape })
  .openapi('MailCheckResponse');

export const mailCheckRequest = requiredWithAlias(
  z
    .object({
      ...domainFields(exampleDomain),
      dkim_selectors: z
        .array(
          z
            .string()
            .refine(isSelector, 'a DKIM selector is DNS labels of letters, digits, - and _'),
        )
        .max(maxCallerSelectors)
        .optional()
        .openapi({
          description: `Up to ${maxCallerSelectors} DKIM selectors (RFC 6376 §3.1) to try first, besides the common ones and those of the providers the MX and SPF records show.`,
          example: exampleSelectors,
        }),
      ...captchaFields,
    })
    .openapi('MailCheckRequest', {
      example: { domain: exampleDomain, dkim_selectors: exampleSelectors },
    }),
  'domain',
  'target',
);

export const smtpProbeStateSchema = z
  .object({
    available: z.boolean().openapi({
      description: 'Whether this runtime can open TCP port 25 at all (not on Workers).',
    }),
    reason: z.string().nullable().openapi({
      description:
        'Why the probe is unavailable, or why the last connection failed (port 25 may be blocked from this server); null otherwise.',
    }),
    last_connect_outcome: z
      .object({
        at: z.iso.datetime(),
        outcome: z.enum(['connected', 'failed']),
      })
      .nullable()
      .openapi({
        description:
          'Whether and when the last probe that tried to connect did, in this process (not where: no host, address or reply); null before any.',
      }),
  })
  .openapi('SmtpProbeState') satisfies z.ZodType<SmtpProbeState>;

export const mailStatusFields = { smtp_probe: smtpProbeStateSchema };
