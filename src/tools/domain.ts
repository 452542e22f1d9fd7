import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.js';
import { type DomainCheckDeps, checkDomain } from '../reputation/domain-check.js';
import { parseHostName } from '../reputation/targets.js';
import { captchaFields, createTool, type ToolDeps } from './factory.js';
import { postFields, quotaStatusSchema } from './schemas.js';
import { summariseDomain } from './share-summaries.js';

/** The domain tool: a sending domain's sender IPs (SPF + MX) and its reputation. */

const domainResult = {
  domain: z.string().openapi({ example: 'example.com' }),
  ips: z.array(z.string()).openapi({
    description:
      'Sender IPs: addresses, ranges of up to 16 written out, larger ranges as CIDR; sorted.',
    example: ['192.0.2.10', '198.51.100.0/24'],
  }),
  exists: z
    .boolean()
    .openapi({ description: 'False when the domain does not exist (ips is then empty).' }),
  domain_score: z
    .object({ score: z.number().int(), verdict: z.string(), confidence: z.string() })
    .loose()
    .openapi({ description: 'Score, verdict, factors and the domain lists (free-form).' }),
};

const bodySchema = z
  .object({
    domain: z
      .string()
      .max(1024)
      .optional()
      .openapi({ description: 'The sending domain', example: 'example.com' }),
    target: z.string().max(1024).optional().openapi({ description: 'Alias of domain' }),
    ...captchaFields,
  })
  .openapi('DomainCheckRequest');

export function createDomainTool(deps: ToolDeps & DomainCheckDeps) {
  const tool = createTool(
    {
      name: 'domain',
      summarise: summariseDomain,
      title: 'Domain',
      stored: z
        .object({ token: z.string(), ...domainResult })
        .loose()
        .openapi('DomainStoredResult'),
    },
    deps,
  );
  tool.addCheck({
    path: '/',
    summary: "Find a domain's sender IPs and check its reputation",
    body: bodySchema,
    result: z
      .object({ ...domainResult, ...postFields })
      .extend(quotaStatusSchema.shape)
      .loose()
      .openapi('DomainCheckResult'),
    prepare(body) {
      const text = body.domain ?? body.target;
      if (text === undefined)
        throw new ApiError('invalid_request', 'domain is required (alias target)');
      const parsed = parseHostName(text);
      if (!parsed.ok) throw new ApiError('invalid_target', parsed.reason);
      if (parsed.target.kind !== 'domain')
        throw new ApiError('invalid_target', 'expected a domain name');
      const domain = parsed.target;
      return {
        requestKey: domain.name,
        run() {
          return checkDomain(deps, domain);
        },
      };
    },
  });
  tool.addTokenRoutes();
  return tool.app;
}
