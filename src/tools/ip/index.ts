import { ApiError } from '../../http/index.js';
import { checkIp, type IpCheckDeps, targetOf } from '../../reputation/index.js';
import { defineTool, firstNonEmpty, type SnapshotDeps, snapshotTool } from '../common/index.js';
import { ipPage } from './page.js';
import { ipCheckResponse, ipCheckRequest, ipStoredResult } from './schemas.js';
import { summariseIp } from './summary.js';

/**
 * The IP tool: one IPv4 or IPv6 address or host name against the blocklists, with reverse DNS and
 * a score.
 */

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
      description:
        'The address (IPv4 dotted quad, IPv6 in any RFC 4291 form) or the addresses of a host name, on every blocklist of the zone list, with reverse DNS forward-confirmed, the listings with their meanings and delisting pages, a score and a verdict. A list that did not answer is counted as such, never as clean.',
      body: ipCheckRequest,
      result: ipCheckResponse,
      prepare(body) {
        const text = firstNonEmpty(body.target, body.q);
        if (text === undefined)
          throw new ApiError('invalid_request', 'target is required (alias q)');
        const parsed = targetOf('ip', text);
        if (!parsed.ok) throw new ApiError('invalid_target', parsed.reason);
        const { target } = parsed;
        return {
          // IPv6 in its canonical form: every spelling of one address is one request.
          requestKey: parsed.text,
          run() {
            return checkIp(deps, target);
          },
        };
      },
    });
    routes.tokenRoutes(ipStoredResult);
  },
});
