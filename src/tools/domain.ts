import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.js';
import { type DomainCheckDeps, checkDomain } from '../reputation/domain-check.js';
import { parseHostName } from '../reputation/targets.js';
import { firstNonEmpty } from './aliases.js';
import { captchaFields, createTool, type ToolDeps } from './factory.js';
import { postFields, quotaStatusSchema } from './schemas.js';
import { summariseDomain } from './share-summaries.js';

/** The domain tool: a sending domain's sender IPs (SPF + MX, IPv4 and IPv6) and its reputation. */

const senderRangeSchema = z
  .object({
    network: z.string().openapi({ example: '198.51.100.0/24' }),
    size: z.number().int().openapi({ description: 'Addresses in the range', example: 256 }),
  })
  .openapi('SenderRange');

const domainResult = {
  domain: z.string().openapi({ example: 'example.com' }),
  ips: z.array(z.string()).openapi({
    description:
      'Sender IPs: single public addresses (SPF ip4/ip6 terms of up to 16 addresses written out, ' +
      'the addresses of a and mx terms, MX hosts A and AAAA, the A and AAAA fallback), IPv4 ' +
      'sorted numerically first, then IPv6 in RFC 5952 canonical form sorted numerically; at ' +
      'most 1,024 of both together (see ips_total). Each can be sent to POST /ip/v1.',
    example: ['192.0.2.10', '192.0.2.11', '2001:db8:10::25'],
  }),
  ips_total: z
    .number()
    .int()
    .openapi({ description: 'How many single sender addresses were found.' }),
  ips_truncated: z
    .boolean()
    .openapi({ description: 'True when ips lists only the first 1,024 of ips_total.' }),
  ranges: z.array(senderRangeSchema).openapi({
    description:
      'IPv4 SPF networks of more than 16 addresses, with their sizes, sorted; at most 256 (see ' +
      'ranges_total). Not checked address by address: addresses.ranges says so.',
  }),
  ranges_total: z.number().int(),
  ip6: z.array(z.string()).openapi({
    description:
      'IPv6 SPF networks of more than 16 addresses (larger than a /124), as address/len in RFC ' +
      '5952 form, sorted; at most 256 (see ip6_total). Kept apart from ranges: their sizes pass ' +
      "JSON's safe integers. Not checked address by address.",
    example: ['2001:db8::/32'],
  }),
  ip6_total: z.number().int(),
  exists: z.literal(true).openapi({
    description: 'Always true: a domain with no public address is a 400 invalid_target.',
  }),
  mx_total: z.number().int().openapi({ description: 'MX records published; mx lists at most 10.' }),
  addresses: z
    .object({
      checked: z.number().int(),
      listed: z.number().int(),
      not_checked: z.array(z.string()),
      ranges: z.object({ checked: z.number().int(), how: z.string() }),
      results: z.array(z.object({ ip: z.string() }).loose()),
    })
    .loose()
    .openapi({
      description:
        'The single addresses of ips checked on the IP lists (at most 16: the first of each ' +
        'family, at least 8 of each when both have more); an IPv6 address only on the lists ' +
        'that cover IPv6.',
    }),
  dmarc: z
    .object({
      status: z.enum(['found', 'none', 'multiple', 'unavailable']),
      present: z.boolean(),
      record: z.string().nullable(),
      policy: z.enum(['none', 'quarantine', 'reject']).nullable(),
      applied: z.enum(['domain', 'organizational']).nullable().openapi({
        description:
          "Whose record applies: the domain's own, or its organisational domain's (RFC 7489 §6.6.3).",
      }),
      domain: z.string().nullable().openapi({ description: 'Where the applied record lives.' }),
    })
    .openapi('DmarcRecord'),
  domain_score: z
    .object({ score: z.number().int(), verdict: z.string(), confidence: z.string() })
    .loose()
    .openapi({ description: 'Score, verdict, factors and the domain lists (free-form).' }),
  notes: z
    .array(z.string())
    .openapi({ description: 'Where a bound cut the check short (MX hosts, addresses, queries).' }),
};

const bodySchema = z
  .object({
    domain: z.string().max(1024).optional().openapi({
      description:
        'The sending domain. Give it or its alias target; if both, the first non-empty one wins.',
      example: 'example.com',
    }),
    target: z
      .string()
      .max(1024)
      .optional()
      .openapi({ description: 'Alias of domain, used when domain is absent or empty' }),
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
      const text = firstNonEmpty(body.domain, body.target);
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
