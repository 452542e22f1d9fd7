import type {
  Disposition,
  DmarcAggregateReport,
  DmarcRow,
  Inbox,
  TlsFailure,
  TlsPolicy,
  TlsReport,
} from '../../../src/reports/index.js';

/**
 * Reports as the readers give them, built the way receivers write them: one report per reporter
 * and UTC day (00:00:00 to 23:59:59), records with their auth_results, TLS policies with their
 * failure details. Dates are `YYYY-MM-DD`.
 */

export function dayStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

export function addDays(date: string, days: number): string {
  return new Date((dayStart(date) + days * 86_400) * 1000).toISOString().slice(0, 10);
}

let inboxes = 0;

/** An inbox with an id and view token of its own (unique within the test run). */
export function anInbox(overrides: Partial<Inbox> = {}): Inbox {
  inboxes += 1;
  const tag = `${Date.now().toString(36)}${inboxes.toString(36).padStart(4, '0')}`;
  return {
    id: `inbox-${tag}`,
    domain: 'example.com',
    keyHash: `sha256:${tag}`,
    viewToken: `view-${tag}`,
    lang: 'en',
    verified: false,
    createdAt: 1_714_521_600_000 + inboxes,
    autoWatch: null,
    ...overrides,
  };
}

export interface RowSpec {
  ip: string;
  messages: number;
  dkim?: boolean;
  spf?: boolean;
  disposition?: Disposition;
  /** null: the record leaves header_from out (the report's domain is meant). */
  headerFrom?: string | null;
}

export function aRow(spec: RowSpec, domain = 'example.com'): DmarcRow {
  const dkim = spec.dkim ?? false;
  const spf = spec.spf ?? false;
  const headerFrom = spec.headerFrom === undefined ? domain : spec.headerFrom;
  const signer = dkim ? (headerFrom ?? domain) : 'esp-mail.example.net';
  return {
    ip: spec.ip,
    messages: spec.messages,
    disposition: spec.disposition ?? 'none',
    dkimAligned: dkim,
    spfAligned: spf,
    reasons: dkim || spf ? [] : [{ type: 'local_policy', comment: null }],
    headerFrom,
    envelopeFrom: spf ? (headerFrom ?? domain) : 'bounces.esp-mail.example.net',
    envelopeTo: null,
    dkim: [{ domain: signer, selector: 's1', result: dkim ? 'pass' : 'fail' }],
    spf: [
      {
        domain: spf ? (headerFrom ?? domain) : 'bounces.esp-mail.example.net',
        scope: 'mfrom',
        result: spf ? 'pass' : 'softfail',
      },
    ],
  };
}

export function aDmarcReport(spec: {
  org: string;
  reportId: string;
  date: string;
  rows: RowSpec[];
  domain?: string;
}): DmarcAggregateReport {
  const domain = spec.domain ?? 'example.com';
  return {
    kind: 'dmarc',
    org: spec.org,
    email: `noreply-dmarc-support@${spec.org}`,
    reportId: spec.reportId,
    begin: dayStart(spec.date),
    end: dayStart(spec.date) + 86_399,
    policy: {
      domain,
      p: 'quarantine',
      sp: null,
      np: null,
      pct: 100,
      adkim: 'r',
      aspf: 'r',
      testing: null,
    },
    rows: spec.rows.map((row) => aRow(row, domain)),
  };
}

export interface FailureSpec {
  resultType: string;
  count: number;
  sendingMtaIp?: string | null;
  receivingMxHostname?: string | null;
}

export interface PolicySpec {
  type?: string;
  domain?: string;
  success: number;
  failure?: number;
  failures?: FailureSpec[];
}

export function aTlsReport(spec: {
  org: string;
  reportId: string;
  date: string;
  policies: PolicySpec[];
}): TlsReport {
  return {
    kind: 'tls',
    org: spec.org,
    contact: `smtp-tls-reporting@${spec.org}`,
    reportId: spec.reportId,
    begin: dayStart(spec.date),
    end: dayStart(spec.date) + 86_399,
    policies: spec.policies.map((policy): TlsPolicy => {
      const failures = (policy.failures ?? []).map((failure): TlsFailure => ({
        resultType: failure.resultType,
        sendingMtaIp: failure.sendingMtaIp === undefined ? '203.0.113.9' : failure.sendingMtaIp,
        receivingMxHostname:
          failure.receivingMxHostname === undefined
            ? 'mx1.example.com'
            : failure.receivingMxHostname,
        receivingIp: null,
        count: failure.count,
      }));
      return {
        type: policy.type ?? 'sts',
        domain: policy.domain ?? 'example.com',
        mxHosts: ['mx1.example.com', 'mx2.example.com'],
        success: policy.success,
        failure: policy.failure ?? failures.reduce((sum, failure) => sum + failure.count, 0),
        failures,
      };
    }),
  };
}
