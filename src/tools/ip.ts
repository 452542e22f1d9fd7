import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.js';
import { type IpCheckDeps, checkIp } from '../reputation/ip-check.js';
import { parseTarget } from '../reputation/targets.js';
import { firstNonEmpty } from './aliases.js';
import { captchaFields, createTool, type ToolDeps } from './factory.js';
import { postFields, quotaStatusSchema } from './schemas.js';
import { summariseIp } from './share-summaries.js';

/**
 * The IP tool: one IPv4 or IPv6 address or host name against the blocklists, with reverse DNS and
 * a score.
 */

const ipScoreSchema = z
  .object({
    score: z.number().int().openapi({ example: 90 }),
    verdict: z.enum(['good', 'fair', 'poor', 'unknown']),
    confidence: z.enum(['high', 'medium', 'low', 'none']),
    factors: z.array(
      z.object({ kind: z.string(), source: z.string(), detail: z.string(), points: z.number() }),
    ),
    listed: z.number().int(),
    answered: z.number().int(),
    not_covered: z
      .number()
      .int()
      .openapi({
        description:
          'Lists that do not answer for IPv6 addresses (an IPv6 address only; 0 otherwise). They are ' +
          'in lists with status disabled, not_covered true and error "does not cover IPv6", and not ' +
          'counted in total.',
      }),
    total: z.number().int().openapi({ description: 'The lists that cover the address.' }),
    lists: z.array(
      z
        .object({
          zone: z.string().openapi({
            description: "The zone asked (for an IPv6 address, the list's IPv6 zone).",
          }),
          name: z.string(),
          status: z.enum(['listed', 'clean', 'error', 'timeout', 'disabled']),
          not_covered: z.literal(true).optional().openapi({
            description: 'The list does not answer for IPv6 addresses; never asked about one.',
          }),
        })
        .loose(),
    ),
    rdns: z
      .object({
        ptr: z.string(),
        names: z.array(z.string()),
        fcrdns: z.enum(['pass', 'fail', 'none', 'error']),
      })
      .loose(),
    checked_at: z.string(),
  })
  .loose()
  .openapi('IpScore', {
    description: 'IP rating and DNSBL result (free-form; these keys are always present).',
  });

const ipResult = {
  kind: z.enum(['ipv4', 'ipv6', 'domain']).openapi({
    description: 'What the target was: an IPv4 address, an IPv6 address or a host name.',
  }),
  target: z.string().openapi({
    description: 'The checked address (IPv6 in RFC 5952 canonical form) or host name.',
    example: '2a00:1450:4001:80b::200e',
  }),
  ip: z.string().openapi({
    description:
      'The address checked (IPv6 in RFC 5952 form). For a host name: its first public IPv4 ' +
      'address, or with none its first public IPv6 address; ip_score.addresses lists them all.',
  }),
  ptr: z.string().openapi({ description: 'The first PTR name, or "".' }),
  ip_score: ipScoreSchema,
};

const bodySchema = z
  .object({
    target: z
      .string()
      .max(1024)
      .optional()
      .openapi({
        description:
          'IPv4 address, IPv6 address (any RFC 4291 text form) or host name. Give it or its alias ' +
          'q; if both, the first non-empty one wins.',
        example: '198.51.100.7',
      }),
    q: z
      .string()
      .max(1024)
      .optional()
      .openapi({ description: 'Alias of target, used when target is absent or empty' }),
    ...captchaFields,
  })
  .openapi('IpCheckRequest');

export function createIpTool(deps: ToolDeps & IpCheckDeps) {
  const tool = createTool(
    {
      name: 'ip',
      summarise: summariseIp,
      title: 'IP',
      stored: z
        .object({ token: z.string(), ...ipResult })
        .loose()
        .openapi('IpStoredResult'),
    },
    deps,
  );
  tool.addCheck({
    path: '/',
    summary: 'Check an IPv4 or IPv6 address or a host name',
    body: bodySchema,
    result: z
      .object({ ...ipResult, ...postFields })
      .extend(quotaStatusSchema.shape)
      .openapi('IpCheckResult'),
    prepare(body) {
      const text = firstNonEmpty(body.target, body.q);
      if (text === undefined) throw new ApiError('invalid_request', 'target is required (alias q)');
      const parsed = parseTarget(text);
      if (!parsed.ok) throw new ApiError('invalid_target', parsed.reason);
      const { target } = parsed;
      // IPv6 in its canonical form: every spelling of one address is one request.
      const requestKey = target.kind === 'domain' ? target.name : target.address;
      return {
        requestKey,
        run() {
          return checkIp(deps, target);
        },
      };
    },
  });
  tool.addTokenRoutes();
  return tool.app;
}
