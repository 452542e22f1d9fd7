import { checkDomain, type DomainCheckDeps } from '../../reputation/index.js';
import { defineTool, requestedDomain, type SnapshotDeps, snapshotTool } from '../common/index.js';
import { domainPage } from './page.js';
import { domainCheckResponse, domainCheckRequest, domainStoredResult } from './schemas.js';
import { summariseDomain } from './summary.js';

/** The domain tool: a sending domain's sender IPs (SPF + MX, IPv4 and IPv6) and its reputation. */

export const domainTool = defineTool({
  name: 'domain',
  title: 'Domain',
  description: "A sending domain's sender IPs (SPF and MX), its lists and its DMARC record",
  submit: 'check.submit',
  summarise: summariseDomain,
  page: domainPage,
  serve(app, deps: SnapshotDeps & DomainCheckDeps): void {
    const routes = snapshotTool(app, domainTool, deps);
    routes.status();
    routes.check({
      path: '/',
      operationId: 'checkDomain',
      summary: "Find a domain's sender IPs and check its reputation",
      description:
        'The sending domain’s sender addresses, found through SPF (its includes followed within RFC 7208’s lookup limits) and its MX hosts, each on the IP blocklists; the domain itself on the domain blocklists; its DMARC record. An address is not a domain: the IP tool checks one.',
      body: domainCheckRequest,
      result: domainCheckResponse,
      prepare(body) {
        const domain = requestedDomain(body, 'domain', deps);
        return {
          requestKey: domain.name,
          run() {
            return checkDomain(deps, domain);
          },
        };
      },
    });
    routes.tokenRoutes(domainStoredResult);
  },
});
