import { checkIp, type IpCheckDeps } from '../../reputation/index.js';
import { defineTool, type SnapshotDeps, snapshotTool } from '../common/index.js';
import { ipPage } from './page.js';
import { readIpRequest } from './request.js';
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
        const { target, requestKey } = readIpRequest(body, deps);
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
