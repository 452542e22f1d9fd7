/**
 * What the reports tool reads and keeps (docs/reports.md): DMARC aggregate reports (RFC 7489
 * appendix C, and the DMARCbis elements of RFC 9990) and SMTP TLS reports (RFC 8460), as the
 * readers in `read/` produce them and the report stores take them. Times are seconds since the
 * epoch (UTC), as the reports write them; dates are `YYYY-MM-DD` in UTC.
 */

/** How a report came in: `POST .../upload`, the SMTP listener, the IMAP poller, Email Workers. */
export type Via = 'upload' | 'smtp' | 'imap' | 'email';
export const vias: readonly Via[] = ['upload', 'smtp', 'imap', 'email'];

export type ReportKind = 'dmarc' | 'tls';

/** RFC 7489 appendix C `DispositionType`: what the receiver did with the messages. */
export type Disposition = 'none' | 'quarantine' | 'reject';

/** One `auth_results/dkim` of a record (RFC 7489 appendix C `DKIMAuthResultType`). */
export interface DkimAuthResult {
  domain: string;
  selector: string | null;
  /** none, pass, fail, policy, neutral, temperror, permerror: lower case. */
  result: string;
}

/** One `auth_results/spf` of a record (`SPFAuthResultType`). */
export interface SpfAuthResult {
  domain: string;
  /** helo or mfrom; null when the report leaves it out. */
  scope: string | null;
  /** none, neutral, pass, fail, softfail, temperror, permerror: lower case. */
  result: string;
}

/** One `record` of an aggregate report: one source address and one set of results. */
export interface DmarcRow {
  /** `row/source_ip`, in canonical text (IPv4 dotted quad, IPv6 as RFC 5952 writes it). */
  ip: string;
  /** `row/count`: messages, not records (every sum of the summary is of these). */
  messages: number;
  disposition: Disposition;
  /**
   * `policy_evaluated/dkim` and `/spf`: whether DKIM and SPF passed *and aligned* with the
   * header From domain (RFC 7489 §3.1). The record's DMARC result is pass when either is true.
   */
  dkimAligned: boolean;
  spfAligned: boolean;
  /** `policy_evaluated/reason`: why the disposition differs from the policy (forwarded, ...). */
  reasons: readonly { type: string; comment: string | null }[];
  /** `identifiers/header_from`, lower case; null when missing (the report's domain is meant). */
  headerFrom: string | null;
  envelopeFrom: string | null;
  envelopeTo: string | null;
  dkim: readonly DkimAuthResult[];
  spf: readonly SpfAuthResult[];
}

/** `policy_published`: the DMARC record the receiver found (RFC 7489 appendix C, RFC 9990). */
export interface PublishedPolicy {
  /** `policy_published/domain`, lower case, without a trailing dot. */
  domain: string;
  p: Disposition | null;
  sp: Disposition | null;
  /** RFC 9990's `np` (non-existent subdomains). */
  np: Disposition | null;
  /** `pct` (RFC 7489); null where absent (RFC 9990 drops it for `testing`). */
  pct: number | null;
  adkim: 'r' | 's' | null;
  aspf: 'r' | 's' | null;
  /** RFC 9990's `testing` (y/n). */
  testing: boolean | null;
}

export interface DmarcAggregateReport {
  kind: 'dmarc';
  /** `report_metadata/org_name`: who reports (google.com, Outlook.com, ...). */
  org: string;
  email: string | null;
  /** `report_metadata/report_id`: with `org`, what makes a report the same report. */
  reportId: string;
  /** `date_range/begin` and `/end`. */
  begin: number;
  end: number;
  policy: PublishedPolicy;
  rows: readonly DmarcRow[];
}

/** One failure detail of a TLS report's policy (RFC 8460 §4.3, `failure-details`). */
export interface TlsFailure {
  /** `result-type`: starttls-not-supported, certificate-expired, sts-policy-fetch-error, ... */
  resultType: string;
  sendingMtaIp: string | null;
  receivingMxHostname: string | null;
  receivingIp: string | null;
  /** `failed-session-count`. */
  count: number;
}

/** One `policies` entry of a TLS report (RFC 8460 §4.4). */
export interface TlsPolicy {
  /** `policy-type`: sts, tlsa or no-policy-found. */
  type: string;
  /** `policy-domain`, lower case. */
  domain: string;
  mxHosts: readonly string[];
  /** `summary/total-successful-session-count` and `/total-failure-session-count`. */
  success: number;
  failure: number;
  failures: readonly TlsFailure[];
}

export interface TlsReport {
  kind: 'tls';
  /** `organization-name`. */
  org: string;
  contact: string | null;
  /** `report-id`. */
  reportId: string;
  /** `date-range/start-datetime` and `/end-datetime`. */
  begin: number;
  end: number;
  policies: readonly TlsPolicy[];
}

export type ParsedReport = DmarcAggregateReport | TlsReport;

/** The domain a report is about: what must be the inbox's domain or a subdomain of it. */
export function reportDomains(report: ParsedReport): string[] {
  return report.kind === 'dmarc'
    ? [report.policy.domain]
    : [...new Set(report.policies.map((policy) => policy.domain))];
}

/** The messages a report counts: DMARC rows' counts, or TLS sessions. */
export function reportMessages(report: ParsedReport): number {
  return report.kind === 'dmarc'
    ? report.rows.reduce((sum, row) => sum + row.messages, 0)
    : report.policies.reduce((sum, policy) => sum + policy.success + policy.failure, 0);
}

/**
 * The UTC date a report is counted on (its `daily` entry, and the period filters): the date of
 * its period's midpoint. Receivers send a report per day, most of them from 00:00 to 23:59 UTC,
 * some from midnight of their own zone; the midpoint puts each on the day it mostly covers.
 */
export function reportDate(report: Pick<ParsedReport, 'begin' | 'end'>): string {
  const middle = Math.floor((report.begin + Math.max(report.begin, report.end)) / 2);
  return new Date(middle * 1000).toISOString().slice(0, 10);
}
