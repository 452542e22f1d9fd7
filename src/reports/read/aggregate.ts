import type { XMLParser } from 'fast-xml-parser';
import type { ReadBudget } from './budget.js';
import { invalidReport, ReportReadError } from './errors.js';
import type {
  DkimAuthResult,
  Disposition,
  DmarcAggregateReport,
  DmarcRow,
  PublishedPolicy,
  SpfAuthResult,
} from './model.js';
import { reportText } from './text.js';
import {
  canonicalAddress,
  countOf,
  domainText,
  type Element,
  elementOf,
  elementsOf,
  epochSecondsOf,
  lowerText,
  optionalText,
  quoted,
  textOf,
} from './values.js';
import { malformation, parseReportXml } from './xml.js';

/**
 * DMARC aggregate reports (RFC 7489 appendix C; RFC 9990, DMARCbis) read from XML, as receivers
 * really send them: values in any letter case, optional elements missing, several DKIM and SPF
 * results, namespaces, RFC 9990's new elements and extensions (which are ignored). What is
 * refused and why: docs/reports.md, "What is read".
 */

export function readAggregateReport(
  bytes: Uint8Array,
  parser: XMLParser,
  budget: ReadBudget,
): DmarcAggregateReport {
  const text = reportText(bytes);
  // Counted before parsing, so a body of too many records is refused before its tree is built.
  budget.countRecords(recordTags(text));
  const document = parseReportXml(parser, text);
  try {
    return aggregateReportOf(document);
  } catch (error) {
    const malformed =
      error instanceof ReportReadError && error.code === 'invalid_report'
        ? malformation(text)
        : undefined;
    throw malformed ? invalidReport(malformed) : error;
  }
}

function aggregateReportOf(document: Element): DmarcAggregateReport {
  const feedback = feedbackOf(document);
  const metadata = elementOf(feedback.report_metadata);
  if (!metadata) throw invalidReport('report_metadata is missing: not a DMARC aggregate report');
  const records = elementsOf(feedback.record);
  const range = elementOf(metadata.date_range);
  return {
    kind: 'dmarc',
    org: orgOf(metadata),
    email: optionalText(metadata.email),
    reportId: reportIdOf(metadata),
    begin: timeOf(range?.begin, 'begin'),
    end: timeOf(range?.end, 'end'),
    policy: policyOf(elementOf(feedback.policy_published)),
    rows: records.map(rowOf),
  };
}

/**
 * The `record` start tags, with or without a prefix (`<record>`, `<d:record ...>`), in one
 * indexOf scan: what the records bound counts.
 */
function recordTags(text: string): number {
  let count = 0;
  for (let at = text.indexOf('record'); at !== -1; at = text.indexOf('record', at + 6)) {
    if (isNameEnd(text.charCodeAt(at + 6)) && startsTag(text, at)) count++;
  }
  return count;
}

/** `>`, `/` or white space: where an element's name ends. */
function isNameEnd(code: number): boolean {
  return (
    code === 0x3e ||
    code === 0x2f ||
    code === 0x20 ||
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0d
  );
}

/** Whether the name at `at` follows `<` directly or after a prefix (`<d:`), not `</`. */
function startsTag(text: string, at: number): boolean {
  if (text.charCodeAt(at - 1) === 0x3c) return true;
  if (text.charCodeAt(at - 1) !== 0x3a) return false;
  // A prefix is short: look back a bounded way, so text full of ":record" costs no more.
  const before = text.slice(Math.max(0, at - 64), at);
  return /<[A-Za-z_][\w.-]*:$/.test(before.slice(before.lastIndexOf('<')));
}

/**
 * The `feedback` root; or the `feedback` inside one wrapping element, as some receivers wrap it
 * in a stray `<xs:schema>` they never close (parsedmarc's ikea.com sample).
 */
function feedbackOf(document: Element): Element {
  // An empty `<feedback/>` is a feedback without its report_metadata.
  if (document.feedback !== undefined) return elementOf(document.feedback) ?? {};
  const roots = Object.keys(document);
  const wrapped =
    roots.length === 1 ? elementOf(elementOf(document[roots[0]!])?.feedback) : undefined;
  if (wrapped) return wrapped;
  throw invalidReport('no feedback element: not a DMARC aggregate report');
}

/** `org_name`, or the domain of `email` when it is empty (as parsedmarc reads it). */
function orgOf(metadata: Element): string {
  const org = optionalText(metadata.org_name);
  if (org) return org;
  const email = textOf(metadata.email);
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (domain) return domain;
  throw invalidReport('report_metadata/org_name is missing');
}

/** `report_id`, without the angle brackets some write around it as around a Message-ID. */
function reportIdOf(metadata: Element): string {
  const id = textOf(metadata.report_id)
    .replace(/^<(.*)>$/, '$1')
    .trim();
  if (id) return id;
  throw invalidReport('report_metadata/report_id is missing');
}

function timeOf(node: unknown, which: 'begin' | 'end'): number {
  const text = textOf(node);
  if (text === '') throw invalidReport(`report_metadata/date_range/${which} is missing`);
  const seconds = epochSecondsOf(text);
  if (seconds === undefined) {
    throw invalidReport(
      `report_metadata/date_range/${which} ${quoted(text)} is not a time in seconds since 1970`,
    );
  }
  return seconds;
}

function policyOf(policy: Element | undefined): PublishedPolicy {
  const domain = domainText(policy?.domain);
  if (!policy || !domain) throw invalidReport('policy_published/domain is missing');
  const pct = countOf(textOf(policy.pct));
  const testing = lowerText(policy.testing);
  return {
    domain,
    p: dispositionOf(policy.p),
    sp: dispositionOf(policy.sp),
    np: dispositionOf(policy.np),
    pct: pct !== undefined && pct <= 100 ? pct : null,
    adkim: alignmentOf(policy.adkim),
    aspf: alignmentOf(policy.aspf),
    testing: testing === 'y' ? true : testing === 'n' ? false : null,
  };
}

function dispositionOf(node: unknown): Disposition | null {
  const value = lowerText(node);
  return value === 'none' || value === 'quarantine' || value === 'reject' ? value : null;
}

function alignmentOf(node: unknown): 'r' | 's' | null {
  const value = lowerText(node);
  return value === 'r' || value === 's' ? value : null;
}

function rowOf(record: Element, index: number): DmarcRow {
  const place = `record ${index + 1}`;
  const row = elementOf(record.row);
  if (!row) throw invalidReport(`${place}: row is missing`);
  const sourceIp = textOf(row.source_ip);
  const ip = canonicalAddress(sourceIp);
  if (ip === undefined) {
    throw invalidReport(
      sourceIp === ''
        ? `${place}: row/source_ip is missing`
        : `${place}: row/source_ip ${quoted(sourceIp)} is not an IP address`,
    );
  }
  const count = textOf(row.count);
  const messages = countOf(count);
  if (messages === undefined) {
    throw invalidReport(`${place}: row/count ${quoted(count)} is not a whole number of messages`);
  }
  const evaluated = elementOf(row.policy_evaluated);
  // RFC 7489 §3.1 and RFC 9990: the DMARC result is pass when either identifier passed and
  // aligned; `policy_evaluated` says so per identifier, in any letter case receivers chose.
  const identifiers = elementOf(record.identifiers) ?? elementOf(record.identities);
  const authResults = elementsOf(record.auth_results);
  return {
    ip,
    messages,
    disposition: evaluatedDisposition(evaluated?.disposition, place),
    dkimAligned: lowerText(evaluated?.dkim) === 'pass',
    spfAligned: lowerText(evaluated?.spf) === 'pass',
    reasons: elementsOf(evaluated?.reason).flatMap(reasonOf),
    headerFrom: domainText(identifiers?.header_from),
    envelopeFrom: domainText(identifiers?.envelope_from),
    envelopeTo: domainText(identifiers?.envelope_to),
    dkim: authResults.flatMap((results) => elementsOf(results.dkim).flatMap(dkimResultOf)),
    spf: authResults.flatMap((results) => elementsOf(results.spf).flatMap(spfResultOf)),
  };
}

/**
 * What the receiver did. RFC 9990's `pass` (no action: DMARC passed under an enforcing policy)
 * is `none`, as is a missing disposition (parsedmarc's default); any other word is refused
 * rather than counted as something it may not be.
 */
function evaluatedDisposition(node: unknown, place: string): Disposition {
  const value = lowerText(node);
  if (value === null || value === 'pass') return 'none';
  if (value === 'none' || value === 'quarantine' || value === 'reject') return value;
  const written = quoted(textOf(node));
  throw invalidReport(
    `${place}: policy_evaluated/disposition ${written} is not none, quarantine or reject`,
  );
}

/** A `reason`; one with no type (`<reason><type></type>...`, seen in the wild) says nothing. */
function reasonOf(reason: Element): DmarcRow['reasons'][number][] {
  const type = lowerText(reason.type);
  return type === null ? [] : [{ type, comment: optionalText(reason.comment) }];
}

/** A DKIM result; one that names no domain says nothing about a signature and is left out. */
function dkimResultOf(result: Element): DkimAuthResult[] {
  const domain = domainText(result.domain);
  if (domain === null) return [];
  return [
    { domain, selector: optionalText(result.selector), result: lowerText(result.result) ?? 'none' },
  ];
}

function spfResultOf(result: Element): SpfAuthResult[] {
  const domain = domainText(result.domain);
  if (domain === null) return [];
  return [{ domain, scope: lowerText(result.scope), result: lowerText(result.result) ?? 'none' }];
}
