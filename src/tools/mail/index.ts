import { ApiError } from '../../http/index.js';
import {
  checkMail,
  type MailCheckDeps,
  type MailProbes,
  probeMarginMs,
  targetOf,
} from '../../reputation/index.js';
import { defineTool, firstNonEmpty, type SnapshotDeps, snapshotTool } from '../common/index.js';
import { mailPage } from './page.js';
import { observeProber } from './probe-state.js';
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
  Pick<MailCheckDeps, 'resolver' | 'dnsbl' | 'deadlineMs' | 'now'> & { probes: MailProbes };

export const mailTool = defineTool({
  name: 'mail',
  title: 'Mail',
  description:
    "A domain's mail authentication, its MX servers' TLS and the mailbox providers' requirements",
  submit: 'check.submit',
  summarise: summariseMail,
  page: mailPage,
  serve(app, deps: MailToolDeps): void {
    const { smtp, state } = observeProber(deps.probes.smtp, deps.now);
    const checkDeps: MailCheckDeps = {
      ...deps.probes,
      resolver: deps.resolver,
      dnsbl: deps.dnsbl,
      deadlineMs: deps.deadlineMs,
      now: deps.now,
      smtp,
      probeDeadlineMs: deps.probes.timeoutMs + probeMarginMs,
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
        const text = firstNonEmpty(body.domain, body.target);
        if (text === undefined)
          throw new ApiError('invalid_request', 'domain is required (alias target)');
        const parsed = targetOf('mail', text);
        if (!parsed.ok) throw new ApiError('invalid_target', parsed.reason);
        const domain = parsed.target;
        // One result per domain and selector set, whatever order or case the caller wrote them in.
        const selectors = [
          ...new Set((body.dkim_selectors ?? []).map((s) => s.toLowerCase())),
        ].sort();
        return {
          requestKey: [domain.name, ...selectors].join(' '),
          run() {
            return checkMail(checkDeps, domain, { selectors });
          },
        };
      },
    });
    routes.tokenRoutes(mailStoredResult);
  },
});
