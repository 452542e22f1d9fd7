import { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/index.js';
import {
  checkIp,
  type IpCheckDeps,
  ipCheckResultSchema,
  parseTarget,
} from '../../reputation/index.js';
import {
  captchaFields,
  defineTool,
  firstNonEmpty,
  postFields,
  quotaStatusSchema,
  requiredWithAlias,
  type SnapshotDeps,
  snapshotTool,
} from '../common/index.js';
import { ipPage } from './page.js';
import { summariseIp } from './summary.js';

/**
 * The IP tool: one IPv4 or IPv6 address or host name against the blocklists, with reverse DNS and
 * a score.
 */

/** What the service itself checks: the demo world's listed addresses (`npm run demo`). */
const exampleTarget = '192.0.3.20';
const exampleIpv6Target = '2a0b:4e07:b3::66';

const ipStoredResult = ipCheckResultSchema
  .extend({ token: postFields.token })
  .openapi('IpStoredResult');

const ipCheckResponse = ipCheckResultSchema
  .extend({ ...postFields, ...quotaStatusSchema.shape })
  .openapi('IpCheckResponse');

const bodySchema = requiredWithAlias(
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

export const ipTool = defineTool({
  name: 'ip',
  title: 'IP',
  description:
    'An IPv4 or IPv6 address or a host name on the blocklists, with reverse DNS and a score',
  submit: 'check.submit',
  summarise: summariseIp,
  page: ipPage,
  serve(app, deps: SnapshotDeps & IpCheckDeps): void {
    const routes = snapshotTool(app, ipTool, deps);
    routes.status();
    routes.check({
      path: '/',
      operationId: 'checkIp',
      summary: 'Check an IPv4 or IPv6 address or a host name',
      body: bodySchema,
      result: ipCheckResponse,
      prepare(body) {
        const text = firstNonEmpty(body.target, body.q);
        if (text === undefined)
          throw new ApiError('invalid_request', 'target is required (alias q)');
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
    routes.tokenRoutes(ipStoredResult);
  },
});
