import { ReadBudget } from './budget.js';
import { type Reading, readReportFile, sniffContent } from './content.js';
import { bytesText, type ReadLimits, ReportReadError, reportTooLarge } from './errors.js';
import { type ReadMessage, readMessageWith, reportMediaTypes } from './message.js';
import type { ParsedReport } from './model.js';
import { createReportXmlParser } from './xml.js';

/**
 * Bytes to reports: an upload's body with its media type, or a message from a mail door
 * (docs/reports.md, "What is read"). Everything read from one body shares one budget; a refusal
 * is a `ReportReadError` whose code is the API's.
 */

/** Types a body is sniffed under: none given, or the type that says nothing. */
const sniffedTypes: ReadonlySet<string> = new Set(['', 'application/octet-stream']);

/** The essence of a media type (RFC 9110 §8.3.1): lower case, parameters dropped. */
function essenceOf(mediaType: string | undefined): string {
  return (mediaType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * The reports in an upload's body. Report types (XML, gzip, zip, TLS JSON) are read by what the
 * bytes are; `message/rfc822` as a message; no type or `application/octet-stream` by sniffing,
 * a message included; any other type is `unsupported_media_type`.
 *
 * @example
 * const reports = await readReports(body, 'application/gzip', defaultReadLimits);
 */
export async function readReports(
  body: Uint8Array,
  mediaType: string | undefined,
  limits: ReadLimits,
): Promise<ParsedReport[]> {
  refuseOversized(body, limits);
  const essence = essenceOf(mediaType);
  const reading = readingWithin(limits);
  if (essence === 'message/rfc822') return (await readMessageWith(body, reading)).reports;
  if (reportMediaTypes.has(essence)) return readReportFile(body, reading);
  if (sniffedTypes.has(essence)) {
    if (sniffContent(body) === undefined && looksLikeMessage(body)) {
      return (await readMessageWith(body, reading)).reports;
    }
    return readReportFile(body, reading);
  }
  throw new ReportReadError(
    'unsupported_media_type',
    `${essence} is not a report type: send application/xml, text/xml, application/gzip, ` +
      'application/zip, application/tlsrpt+json, application/tlsrpt+gzip, application/json ' +
      'or message/rfc822',
  );
}

/** The reports in a message, and whom it was sent to, for the mail doors. */
export async function readMessage(message: Uint8Array, limits: ReadLimits): Promise<ReadMessage> {
  refuseOversized(message, limits);
  return readMessageWith(message, readingWithin(limits));
}

function readingWithin(limits: ReadLimits): Reading {
  return { budget: new ReadBudget(limits), parser: createReportXmlParser() };
}

function refuseOversized(body: Uint8Array, limits: ReadLimits): void {
  if (body.length > limits.maxBytes) {
    throw reportTooLarge(
      `the body is ${body.length} bytes, more than ${bytesText(limits.maxBytes)}`,
    );
  }
}

/** RFC 5322 §2.2: a message starts with a header field, `Name: value`. */
function looksLikeMessage(body: Uint8Array): boolean {
  const head = new TextDecoder().decode(body.subarray(0, 200));
  return /^[!-9;-~]+:[ \t]/.test(head);
}

/**
 * The readers bound to one set of limits, with the refusal they throw as the intake answers it
 * (`{ code, reason }`), undefined for any other error.
 *
 * @example
 * const reader = createReportReader({ maxBytes: config.REPORTS_MAX_BYTES, maxRecords: 100_000 });
 */
export function createReportReader(limits: ReadLimits) {
  return {
    readReports: (body: Uint8Array, mediaType: string | undefined) =>
      readReports(body, mediaType, limits),
    readMessage: async (message: Uint8Array) => (await readMessage(message, limits)).reports,
    refusalOf: (error: unknown) =>
      error instanceof ReportReadError ? { code: error.code, reason: error.reason } : undefined,
  };
}
