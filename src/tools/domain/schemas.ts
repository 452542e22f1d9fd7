import { z } from '@hono/zod-openapi';
import { domainCheckResultSchema } from '../../reputation/index.js';
import {
  captchaFields,
  domainFields,
  postFields,
  quotaStatusSchema,
  requiredWithAlias,
} from '../common/index.js';

/** The domain tool's request and answer bodies: the result itself is src/reputation/results/. */

/** What the service itself checks: the demo world's sending domain (`npm run demo`). */
const exampleDomain = 'demo-sender.com';

export const domainStoredResult = domainCheckResultSchema
  .extend({ token: postFields.token })
  .openapi('DomainStoredResult');

export const domainCheckResponse = domainCheckResultSchema
  .extend({ ...postFields, ...quotaStatusSchema.shape })
  .openapi('DomainCheckResponse');

export const domainCheckRequest = requiredWithAlias(
  z
    .object({
      ...domainFields(exampleDomain),
      ...captchaFields,
    })
    .openapi('DomainCheckRequest', { example: { domain: exampleDomain } }),
  'domain',
  'target',
);
