import { checkMail, type MailCheckDeps } from '../../reputation/index.js';
import { defineTool, type SnapshotDeps, snapshotTool } from '../common/index.js';
import { type MailProbes, probeMarginMs } from './deps.js';

export { type MailProbes, probeMarginMs };
import { mailPage } from './page.js';
import { observeProber } from './probe-state.js';
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

type MailToolDeps = SnapshotDeps &
  Pick<MailCheckDeps, 'resolver' | 'dnsbl' | 'deadlineMs' | 'now'> & { mail: MailProbes };

export const mailTool = defineTool({
  name: 'mail',
  title: 'Mail',
  description:
    "A domain's mail authentication, its MX servers' TLS and the mailbox providers' requirements",
  submit: 'check.submit',
  summarise: summariseMail,
  page: mailPage,
  serve(app, deps: MailToolDeps): void {
    const { smtp, state } = observeProber(deps.mail.smtp, deps.now);
    const checkDeps: MailCheckDeps = {
      ...deps.mail,
      resolver: deps.resolver,
      dnsbl: deps.dnsbl,
      deadlineMs: deps.deadlineMs,
      now: deps.now,
      smtp,
      probeDeadlineMs: deps.mail.timeoutMs + probeMarginMs,
    };
    const routes = snapshotTool(app, mailTool, deps);
    routes.status({ fields: mailStatusFields, read: () => ({ smtp_probe: state() }) });
    routes.check({
      path: '/',
      operationId: 'checkMail',
      summary: "Check a domain's mail setup against the mailbox providers' requirements",
      body: mailCheckRequest,
      result: mailCheckResponse,
      prepare(body) {
        const { domain, selectors, requestKey } = readMailRequest(body);
        return { requestKey, run: () => checkMail(checkDeps, domain, { selectors }) };
      },
    });
    routes.tokenRoutes(mailStoredResult);
  },
});
