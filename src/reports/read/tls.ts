import type { ReadBudget } from './budget.js';
import { invalidReport } from './errors.js';
import type { TlsFailure, TlsPolicy, TlsReport } from './model.js';
import { reportText } from './text.js';
import { canonicalAddress, countOf, quoted } from './values.js';

/**
 * SMTP TLS reports (RFC 8460 §4): the JSON report, every policy's summary and failure details.
 * Session counts must be whole numbers; dates are RFC 3339 date-times (§4.4).
 */

type Json = Record<string, unknown>;

export function readTlsReport(bytes: Uint8Array, budget: ReadBudget): TlsReport {
  let report: unknown;
  try {
    report = JSON.parse(reportText(bytes));
  } catch (error) {
    throw invalidReport(`not JSON (${error instanceof Error ? error.message : error})`);
  }
  if (!isObject(report)) throw invalidReport('not a TLS report: the JSON is not an object');
  const org = stringOf(report['organization-name']);
  if (!org) throw invalidReport('organization-name is missing: not a TLS report');
  const reportId = stringOf(report['report-id']);
  if (!reportId) throw invalidReport('report-id is missing');
  const range = isObject(report['date-range']) ? report['date-range'] : {};
  const policies = report.policies;
  if (!Array.isArray(policies)) throw invalidReport('policies is missing');
  budget.countRecords(policies.length);
  return {
    kind: 'tls',
    org,
    contact: stringOf(report['contact-info']) || null,
    reportId,
    begin: dateTimeOf(range['start-datetime'], 'date-range/start-datetime'),
    end: dateTimeOf(range['end-datetime'], 'date-range/end-datetime'),
    policies: policies.map((policy, index) => policyOf(policy, `policies[${index}]`, budget)),
  };
}

function policyOf(entry: unknown, place: string, budget: ReadBudget): TlsPolicy {
  if (!isObject(entry) || !isObject(entry.policy))
    throw invalidReport(`${place}/policy is missing`);
  const { policy } = entry;
  const type = stringOf(policy['policy-type']).toLowerCase();
  if (!type) throw invalidReport(`${place}/policy/policy-type is missing`);
  const domain = stringOf(policy['policy-domain']).toLowerCase().replace(/\.$/, '');
  if (!domain) throw invalidReport(`${place}/policy/policy-domain is missing`);
  const summary = isObject(entry.summary) ? entry.summary : {};
  const details = entry['failure-details'] ?? [];
  if (!Array.isArray(details)) throw invalidReport(`${place}/failure-details is not a list`);
  budget.countRecords(details.length);
  return {
    type,
    domain,
    // RFC 8460 §4.4 names it `mx-host`; some write `mx-host-pattern`; a string or a list.
    mxHosts: [policy['mx-host'], policy['mx-host-pattern']]
      .flat()
      .filter((host): host is string => typeof host === 'string' && host !== '')
      .map((host) => host.toLowerCase()),
    success: sessionsOf(
      summary['total-successful-session-count'],
      `${place}/summary`,
      'successful',
    ),
    failure: sessionsOf(summary['total-failure-session-count'], `${place}/summary`, 'failure'),
    failures: details.map((detail, index) =>
      failureOf(detail, `${place}/failure-details[${index}]`),
    ),
  };
}

function failureOf(detail: unknown, place: string): TlsFailure {
  if (!isObject(detail)) throw invalidReport(`${place} is not an object`);
  const resultType = stringOf(detail['result-type']).toLowerCase();
  if (!resultType) throw invalidReport(`${place}/result-type is missing`);
  const count = wholeNumberOf(detail['failed-session-count']);
  if (count === undefined) {
    throw invalidReport(`${place}/failed-session-count is not a whole number of sessions`);
  }
  const mx = stringOf(detail['receiving-mx-hostname']).toLowerCase().replace(/\.$/, '');
  return {
    resultType,
    sendingMtaIp: addressOf(detail['sending-mta-ip'], `${place}/sending-mta-ip`),
    receivingMxHostname: mx || null,
    receivingIp: addressOf(detail['receiving-ip'], `${place}/receiving-ip`),
    count,
  };
}

function sessionsOf(value: unknown, place: string, which: 'successful' | 'failure'): number {
  const count = wholeNumberOf(value);
  if (count === undefined) {
    throw invalidReport(
      value === undefined
        ? `${place}/total-${which}-session-count is missing`
        : `${place}/total-${which}-session-count is not a whole number of sessions`,
    );
  }
  return count;
}

/** A non-negative integer: a JSON number, or its digits in a string (some quote numbers). */
function wholeNumberOf(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  }
  return typeof value === 'string' ? countOf(value.trim()) : undefined;
}

function addressOf(value: unknown, place: string): string | null {
  const text = stringOf(value);
  if (!text) return null;
  const address = canonicalAddress(text);
  if (address === undefined) throw invalidReport(`${place} ${quoted(text)} is not an IP address`);
  return address;
}

/** RFC 3339 §5.6 `date-time`: a full date, a time and an offset (`Z` or `±hh:mm`). */
const dateTime = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function dateTimeOf(value: unknown, place: string): number {
  const text = stringOf(value);
  if (!text) throw invalidReport(`${place} is missing`);
  const ms = dateTime.test(text) ? Date.parse(text.replace(' ', 'T').toUpperCase()) : NaN;
  if (Number.isNaN(ms))
    throw invalidReport(`${place} ${quoted(text)} is not an RFC 3339 date-time`);
  return Math.floor(ms / 1000);
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
