import { z } from '@hono/zod-openapi';
import { ipCheckResultSchema } from '../../reputation/index.js';
import {
  captchaFields,
  postFields,
  quotaStatusSchema,
  requiredWithAlias,
} from '../common/index.js';

/** The IP tool's request and answer bodies: the result itself is src/reputation/results/. */

/** What the service itself checks: the demo world's listed addresses (`npm run demo`). */
const exampleTarget = '192.0.3.20';
const exampleIpv6Target = '2a0b:4e07:b3::66';

export const ipStoredResult = ipCheckResultSchema
  .extend({ token: postFields.token })
  .openapi('IpStoredResult');

export const ipCheckResponse = ipCheckResultSchema
  .extend({ ...postFields, ...quotaStatusSchema.shape })
  .openapi('IpCheckResponse');

export const ipCheckRequest = requiredWithAlias(
  z
    .object({
      target: z
        .string()
        .max(1024)
        .optional()
        .openapi({
          description:
            'IPv4 address, IPv6 address (any RFC 4291 text form) or host name. Give it or its alias ' +
            'q; if both, the first non-empty one wins.',
          example: exampleTarget,
        }),
      q: z
        .string()
        .max(1024)
        .optional()
        .openapi({ description: 'Alias of target, used when target is absent or empty' }),
      ...captchaFields,
    })
    .openapi('IpCheckRequest', {
      example: { target: exampleTarget },
      examples: [{ target: exampleTarget }, { target: exampleIpv6Target }],
    }),
  'target',
  'q',
);
