import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.js';
import { type IpCheckDeps, checkIp } from '../reputation/ip-check.js';
import { parseTarget } from '../reputation/targets.js';
import { firstNonEmpty } from './aliases.js';
import { captchaFields, createTool, type ToolDeps } from './factory.js';
import { postFields, quotaStatusSchema } from './schemas.js';
import { summariseIp } from './share-summaries.js';

/** The IP tool: one IPv4 address or host name against the blocklists, with reverse DNS and a score. */

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
    total: z.number().int(),
    lists: z.array(z.object({ zone: z.string(), name: z.string(), status: z.string() }).loose()),
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
  kind: z.enum(['ipv4', 'domain']).openapi({ description: 'What the target was.' }),
  target: z.string().openapi({ example: '198.51.100.7' }),
  ip: z.string(),
  ptr: z.string().openapi({ description: 'The first PTR name, or "".' }),
  ip_score: ipScoreSchema,
};

const bodySchema = z
  .object({
    target: z.string().max(1024).optional().openapi({
      description:
        'IPv4 address or host name. Give it or its alias q; if both, the first non-empty one wins.',
      example: '192.0.2.1',
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
    summary: 'Check an IPv4 address or host name',
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
      const requestKey = target.kind === 'ipv4' ? target.address : target.name;
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
