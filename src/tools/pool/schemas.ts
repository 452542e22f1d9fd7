import { z } from '@hono/zod-openapi';
import { poolCheckResultSchema, poolDiscoverResultSchema } from '../../reputation/index.js';
import {
  captchaFields,
  postFields,
  quotaStatusSchema,
  requiredWithAlias,
} from '../common/index.js';

/** The pool tool's request and answer bodies: the results themselves are src/reputation/results/. */

/** What the service itself checks: the demo world's pool (`npm run demo`). */
const examplePool = 'pool.demo-sender.com';

export const discoverResponse = poolDiscoverResultSchema
  .extend({ ...postFields, ...quotaStatusSchema.shape })
  .openapi('PoolDiscoverResponse');

export const checkResponse = poolCheckResultSchema
  .extend({ ...postFields, ...quotaStatusSchema.shape })
  .openapi('PoolCheckResponse');

export const storedResult = z
  .discriminatedUnion('kind', [
    poolDiscoverResultSchema.extend({ token: postFields.token }),
    poolCheckResultSchema.extend({ token: postFields.token }),
  ])
  .openapi('PoolStoredResult', {
    description: 'A discover (kind discover: results holds the addresses) or a check (kind check).',
  });

export const discoverBody = requiredWithAlias(
  z
    .object({
      pool: z.string().max(1024).optional().openapi({
        description:
          'Host name of the pool. Give it or its alias domain; if both, the first non-empty one wins.',
        example: examplePool,
      }),
      domain: z
        .string()
        .max(1024)
        .optional()
        .openapi({ description: 'Alias of pool, used when pool is absent or empty' }),
      ...captchaFields,
    })
    .openapi('PoolDiscoverRequest', { example: { pool: examplePool } }),
  'pool',
  'domain',
);

/** `ips` holds 1 to POOL_MAX_IPS addresses: the schema says what the service enforces. */
export function checkBodyFor(maxIps: number) {
  const limit = `ips must hold 1 to ${maxIps} addresses`;
  return z
    .object({
      pool: z
        .string()
        .max(1024)
        .openapi({ description: 'Host name of the pool', example: examplePool }),
      ips: z
        .array(z.string().max(64))
        .min(1, limit)
        .max(maxIps, limit)
        .openapi({
          uniqueItems: true,
          description: `1 to ${maxIps} distinct addresses, each found by the latest discover of the pool: IPv4, or IPv6 in any RFC 4291 text form (compared and shown in RFC 5952 canonical form)`,
          example: ['192.0.3.100', '192.0.3.101'],
        }),
      ...captchaFields,
    })
    .openapi('PoolCheckRequest', {
      example: { pool: examplePool, ips: ['192.0.3.100', '192.0.3.101'] },
    });
}
