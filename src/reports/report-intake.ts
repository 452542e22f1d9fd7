import { inboxIdOf, type ReportsMailbox } from './rua/index.js';
import type { IntakeOutcome, IntakeRefusal, ReportIntake, TakenReport } from './intake.js';
import { type ParsedReport, reportDomains, reportMessages, type Via } from './read/index.js';
import type { Inbox, ReportStore } from './store.js';

/**
 * The one intake every door shares (docs/reports.md, "How reports come in"): a recipient routed to
 * its inbox by its subaddress (RFC 5233), the body read into reports, each report's domain checked
 * against the inbox's, and the reports kept. All or nothing per body (an upload, a message): every
 * report is read and judged before any is kept, and they are kept in one transaction, so a refused
 * body, or a store that fails midway, leaves nothing behind.
 */

/** What reads bodies into reports: the readers of src/reports/read/, within REPORTS_MAX_BYTES. */
export interface ReportReader {
  /** An upload's body by its media type; throws a `ReadRefusal` for what it refuses. */
  readReports(body: Uint8Array, mediaType: string): Promise<ParsedReport[]>;
  /** A whole message's reports; throws a `ReadRefusal` for what it refuses. */
  readMessage(message: Uint8Array): Promise<ParsedReport[]>;
  /** The refusal a reader threw, as the intake answers it; undefined for any other error. */
  refusalOf(error: unknown): IntakeRefusal | undefined;
}

export interface IntakeDeps {
  store: ReportStore;
  reader: ReportReader;
  clock: () => Date;
  /** REPORTS_ADDRESS read; absent: no recipient is an inbox's, and mail is refused. */
  mailbox?: ReportsMailbox;
  /** Asks the DNS whether an unverified inbox's domain names it now (inboxes.ts `verify`). */
  verify(inbox: Inbox): Promise<{ inbox: Inbox }>;
}

type Refused = { ok: false } & IntakeRefusal;
const refuse = (code: IntakeRefusal['code'], reason: string): Refused =>
  ({ ok: false, code, reason }) as Refused;

/** A report's domain is the inbox's, or a subdomain of it (names compared in lower case). */
export function coversDomain(inboxDomain: string, reported: string): boolean {
  const name = reported.toLowerCase().replace(/\.$/, '');
  return name === inboxDomain || name.endsWith(`.${inboxDomain}`);
}

function taken(report: ParsedReport, duplicate: boolean): TakenReport {
  return {
    kind: report.kind,
    org: report.org,
    report_id: report.reportId,
    begin: new Date(report.begin * 1000).toISOString(),
    end: new Date(report.end * 1000).toISOString(),
    records: report.kind === 'dmarc' ? report.rows.length : report.policies.length,
    messages: reportMessages(report),
    duplicate,
  };
}

export function createReportIntake(deps: IntakeDeps): ReportIntake {
  const { store, reader } = deps;

  /** Reads the body; a reader's refusal is the outcome, anything else is thrown on. */
  async function read(run: () => Promise<ParsedReport[]>): Promise<ParsedReport[] | Refused> {
    try {
      return await run();
    } catch (error) {
      const refusal = reader.refusalOf(error);
      if (refusal === undefined) throw error;
      return { ok: false, ...refusal } as Refused;
    }
  }

  /** Judges every report, then keeps them all, in order. */
  async function keep(
    inbox: Inbox,
    reports: ParsedReport[] | Refused,
    via: Via,
  ): Promise<IntakeOutcome> {
    if (!Array.isArray(reports)) return reports;
    if (reports.length === 0) return refuse('invalid_report', 'the body holds no report');
    for (const report of reports) {
      const foreign = reportDomains(report).find((domain) => !coversDomain(inbox.domain, domain));
      if (foreign !== undefined) {
        return refuse(
          'report_domain_mismatch',
          `${report.org}’s report ${report.reportId} is about ${foreign}, not ${inbox.domain} or a subdomain of it; nothing of this body was kept`,
        );
      }
    }
    // One transaction: a store that fails midway keeps none of them either.
    const receivedAt = deps.clock().getTime();
    const kept = await store.addReports(
      inbox.id,
      reports.map((report) => ({ report, via, receivedAt })),
    );
    const received = reports.map((report, index) => taken(report, kept[index]!.duplicate));
    return { ok: true, inboxId: inbox.id, received };
  }

  /** The inbox mail to `recipient` is for, verified (asked of the DNS again when it is not yet). */
  async function recipientInbox(recipient: string): Promise<Inbox | Refused> {
    const id = deps.mailbox ? inboxIdOf(deps.mailbox, recipient) : undefined;
    const inbox = id === undefined ? undefined : await store.inbox(id);
    if (!inbox) return refuse('unknown_recipient', `${recipient} is not a reports inbox here`);
    if (inbox.verified) return inbox;
    const checked = await deps.verify(inbox);
    if (checked.inbox.verified) return checked.inbox;
    return refuse(
      'inbox_unverified',
      `${inbox.domain}’s DMARC and TLS-RPT records do not name this inbox’s address yet`,
    );
  }

  return {
    async upload(inbox, body, mediaType) {
      return keep(inbox, await read(() => reader.readReports(body, mediaType)), 'upload');
    },

    async accepts(recipient) {
      const inbox = await recipientInbox(recipient);
      if ('ok' in inbox) {
        return inbox as Extract<Refused, { code: 'unknown_recipient' | 'inbox_unverified' }>;
      }
      return { ok: true };
    },

    async mail(recipient, message, via) {
      const inbox = await recipientInbox(recipient);
      if ('ok' in inbox) return inbox;
      return keep(inbox, await read(() => reader.readMessage(message)), via);
    },
  };
}
