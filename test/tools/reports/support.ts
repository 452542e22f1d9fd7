import { gzipSync } from 'node:zlib';
import { assertAnswerDocumented } from '../../support/documented.js';
import { basePath, type TestService } from '../../support/service.js';

/**
 * What the reports route suites share: reports written as receivers write them (RFC 7489
 * appendix C XML, RFC 8460 JSON, a message with one attached), an inbox made over HTTP, and the
 * requests only its key may make, every JSON answer checked against the route's document.
 */

export interface Row {
  ip: string;
  count: number;
  /** policy_evaluated: DKIM and SPF aligned (pass) or not. */
  dkim?: boolean;
  spf?: boolean;
  disposition?: 'none' | 'quarantine' | 'reject';
  headerFrom?: string;
}

export interface Aggregate {
  org: string;
  reportId: string;
  domain: string;
  /** The UTC day it covers, 00:00:00 to 23:59:59. */
  date: string;
  rows: Row[];
}

const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/** An aggregate report as RFC 7489 appendix C writes it. */
export function aggregateXml(report: Aggregate): string {
  const begin = dayStart(report.date);
  const records = report.rows
    .map((row) => {
      const dkim = row.dkim ? 'pass' : 'fail';
      const spf = row.spf ? 'pass' : 'fail';
      const from = row.headerFrom ?? report.domain;
      return `<record><row><source_ip>${row.ip}</source_ip><count>${row.count}</count><policy_evaluated><disposition>${row.disposition ?? 'none'}</disposition><dkim>${dkim}</dkim><spf>${spf}</spf></policy_evaluated></row><identifiers><header_from>${from}</header_from></identifiers><auth_results><dkim><domain>${from}</domain><result>${dkim}</result></dkim><spf><domain>${from}</domain><result>${spf}</result></spf></auth_results></record>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><feedback><report_metadata><org_name>${report.org}</org_name><email>noreply-dmarc@${report.org}</email><report_id>${report.reportId}</report_id><date_range><begin>${begin}</begin><end>${begin + 86_399}</end></date_range></report_metadata><policy_published><domain>${report.domain}</domain><adkim>r</adkim><aspf>r</aspf><p>none</p><sp>none</sp><pct>100</pct></policy_published>${records}</feedback>`;
}

export const gzipped = (text: string) => new Uint8Array(gzipSync(Buffer.from(text)));

export interface TlsSpec {
  org: string;
  reportId: string;
  domain: string;
  date: string;
  success: number;
  failure: number;
  failures?: { resultType: string; mx: string; mta: string; count: number }[];
}

/** A TLS report as RFC 8460 §4.4 writes it. */
export function tlsJson(report: TlsSpec): string {
  return JSON.stringify({
    'organization-name': report.org,
    'date-range': {
      'start-datetime': `${report.date}T00:00:00Z`,
      'end-datetime': `${report.date}T23:59:59Z`,
    },
    'contact-info': `smtp-tls-reporting@${report.org}`,
    'report-id': report.reportId,
    policies: [
      {
        policy: {
          'policy-type': 'sts',
          'policy-string': ['version: STSv1', 'mode: enforce', `mx: mx.${report.domain}`],
          'policy-domain': report.domain,
          'mx-host': [`mx.${report.domain}`],
        },
        summary: {
          'total-successful-session-count': report.success,
          'total-failure-session-count': report.failure,
        },
        'failure-details': (report.failures ?? []).map((failure) => ({
          'result-type': failure.resultType,
          'sending-mta-ip': failure.mta,
          'receiving-mx-hostname': failure.mx,
          'failed-session-count': failure.count,
        })),
      },
    ],
  });
}

/** A message as a receiver mails its report: the gzip attached in base64 (RFC 7489 §7.2.1.1). */
export function reportMessage(to: string, attachment: Uint8Array, name: string): string {
  const body = Buffer.from(attachment)
    .toString('base64')
    .replace(/(.{76})/g, '$1\r\n');
  return [
    'From: noreply-dmarc-support@google.com',
    `To: ${to}`,
    `Subject: Report domain: example Submitter: google.com Report-ID: <${name}>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'This is an aggregate report.',
    '--b1',
    `Content-Type: application/gzip; name="${name}.xml.gz"`,
    'Content-Transfer-Encoding: base64',
    `Content-Disposition: attachment; filename="${name}.xml.gz"`,
    '',
    body,
    '--b1--',
    '',
  ].join('\r\n');
}

export interface CreatedInbox {
  id: string;
  domain: string;
  key: string;
  view_url: string;
  address: string | null;
  verified: boolean;
  suggested: {
    dmarc: { name: string; current: string | null; value: string | null; change: string | null };
    tls_rpt: { name: string; current: string | null; value: string | null; change: string | null };
  } | null;
  authorization: {
    needed: boolean;
    authorized: boolean | null;
    record: { name: string; type: string; value: string } | null;
    wildcard: string | null;
    detail: string;
  } | null;
  dailyRemaining: number;
}

/** A request with any method, JSON answers checked against the route's documented schema. */
export async function send(
  service: TestService,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  options: {
    body?: unknown;
    /** The body's bytes as they are, with this Content-Type. */
    raw?: { bytes: Uint8Array | string; type?: string };
    key?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const json = options.body !== undefined;
  const response = await service.fetch(service.url(path), {
    method,
    headers: {
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...(options.raw?.type ? { 'content-type': options.raw.type } : {}),
      ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
      ...options.headers,
    },
    ...(json ? { body: JSON.stringify(options.body) } : {}),
    ...(options.raw ? { body: options.raw.bytes as RequestInit['body'] } : {}),
  });
  if (/^application\/json/.test(response.headers.get('content-type') ?? '')) {
    assertAnswerDocumented(
      service.app,
      method,
      `${basePath}${path.split('?')[0]}`,
      response.status,
      await response.clone().json(),
    );
  }
  return response;
}

/** POST /reports/v1, which must answer 201. */
export async function createInbox(
  service: TestService,
  body: object,
  headers: Record<string, string> = {},
): Promise<CreatedInbox> {
  const response = await send(service, 'POST', '/reports/v1', { body, headers });
  if (response.status !== 201) {
    throw new Error(`POST /reports/v1: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as CreatedInbox;
}

/** POST /{id}/upload of `bytes` as `type`. */
export function upload(
  service: TestService,
  inbox: { id: string; key: string },
  bytes: Uint8Array | string,
  type: string,
): Promise<Response> {
  return send(service, 'POST', `/reports/v1/${inbox.id}/upload`, {
    raw: { bytes, type },
    key: inbox.key,
  });
}
