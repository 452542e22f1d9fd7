import { defineTool, type SnapshotDeps, snapshotTool } from '../common/index.js';
import { mailCheckDeps, type MailToolDeps, operatorCheck } from './check-deps.js';
import { mailPrepare } from './prepare.js';
import { mailPage } from './page.js';
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
  // Its records and probes ask no blocklist: it runs, and says what it left out, while none is proven.
  needsLists: false,
  summarise: summariseMail,
  page: mailPage,
  serve(app, deps: SnapshotDeps & MailToolDeps): void {
    const { checkDeps, state } = mailCheckDeps(deps);
    const routes = snapshotTool(app, mailTool, deps);
    routes.status({
      fields: mailStatusFields,
      description:
        '`smtp_probe` says whether this runtime can probe MX hosts over SMTP and how its last connection fared: every connection failing means port 25 is blocked where the service runs.',
      read: () => ({ smtp_probe: state() }),
    });
    routes.check({
      path: '/',
      operationId: 'checkMail',
      summary: "Check a domain's mail setup against the mailbox providers' requirements",
      description:
        'The domain’s SPF, DKIM (the usual selectors and those given), DMARC and its report destinations, BIMI, MTA-STS, TLS-RPT and DANE, its MX hosts probed for STARTTLS, and a sample of its sender addresses’ reverse DNS and listings, judged against Gmail’s, Yahoo’s and Microsoft’s sender requirements, with a score.',
      body: mailCheckRequest,
      result: mailCheckResponse,
      prepare: mailPrepare(deps, checkDeps, operatorCheck(deps)),
    });
    routes.tokenRoutes(mailStoredResult);
  },
});
