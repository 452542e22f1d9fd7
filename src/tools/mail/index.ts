import { checkMail, isCapacityShortage, type MailCheckResult } from '../../reputation/index.js';
import { defineTool, type SnapshotDeps, snapshotTool } from '../common/index.js';
import { mailCheckDeps, type MailToolDeps, operatorCheck } from './check-deps.js';
import { mailPage } from './page.js';
import { readMailRequest } from './request.js';
import {
  mailCheckRequest,
  mailCheckResponse,
  mailStatusFields,
  mailStoredResult,
} from './schemas.js';
import { summariseMail } from './summary.js';

/**
 * The mail tool: will Gmail, Yahoo and Microsoft take this domain's mail? Its authentication, its
 * MX servers' STARTTLS, MTA-STS, TLS-RPT, DANE and the providers' requirements (docs/mail.md).
 */

export const mailTool = defineTool({
  name: 'mail',
  title: 'Mail',
  description:
    "A domain's mail authentication, its MX servers' TLS and the mailbox providers' requirements",
  submit: 'check.submit',
  summarise: summariseMail,
  page: mailPage,
  serve(app, deps: SnapshotDeps & MailToolDeps): void {
    const { checkDeps, state } = mailCheckDeps(deps);
    const isOperator = operatorCheck(deps);
    const routes = snapshotTool(app, mailTool, deps);
    routes.status({ fields: mailStatusFields, read: () => ({ smtp_probe: state() }) });
    routes.check({
      path: '/',
      operationId: 'checkMail',
      summary: "Check a domain's mail setup against the mailbox providers' requirements",
      body: mailCheckRequest,
      result: mailCheckResponse,
      async prepare(body, sender) {
        const { domain, selectors, requestKey } = readMailRequest(body);
        const operator = await isOperator(sender.bearer);
        return {
          // The operator's results may show inside servers: never served to anyone else.
          requestKey: operator ? `${requestKey} #operator` : requestKey,
          // The caller's share of the probe slots; a result some probe was not made for is not kept.
          run: () =>
            checkMail(checkDeps, domain, {
              selectors,
              operator,
              caller: sender.subject,
              interactive: true,
            }),
          cacheable: (result) =>
            !(result as MailCheckResult).mx.some((host) => isCapacityShortage(host.smtp)),
        };
      },
    });
    routes.tokenRoutes(mailStoredResult);
  },
});
