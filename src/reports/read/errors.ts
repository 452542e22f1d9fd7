/**
 * Why bytes were not read as reports, in the codes of the API's error table (400
 * `invalid_report`, 413 `report_too_large`, 415 `unsupported_media_type`), with a reason a person
 * can act on: which element is missing, which bound was passed (docs/reports.md, "What is read").
 */

export type ReadRefusalCode = 'invalid_report' | 'report_too_large' | 'unsupported_media_type';

export class ReportReadError extends Error {
  override readonly name = 'ReportReadError';

  constructor(
    readonly code: ReadRefusalCode,
    readonly reason: string,
  ) {
    super(reason);
  }

  /** The same refusal, its reason prefixed with where it was found (an attachment, a zip entry). */
  within(place: string): ReportReadError {
    return new ReportReadError(this.code, `${place}: ${this.reason}`);
  }
}

export function invalidReport(reason: string): ReportReadError {
  return new ReportReadError('invalid_report', reason);
}

export function reportTooLarge(reason: string): ReportReadError {
  return new ReportReadError('report_too_large', reason);
}

/** The bounds on what one body (one upload, one message) may hold, REPORTS_MAX_BYTES among them. */
export interface ReadLimits {
  /** Bytes of the body, and bytes its gzip and zip contents expand to, all entries together. */
  maxBytes: number;
  /** Records of every report in the body together (a TLS report's policies and failure details). */
  maxRecords: number;
}

export const defaultReadLimits: ReadLimits = { maxBytes: 10 * 1024 * 1024, maxRecords: 100_000 };

/** `10 MB` for a whole number of mebibytes, else the bytes: the bound as a refusal states it. */
export function bytesText(bytes: number): string {
  const mebibyte = 1024 * 1024;
  return bytes % mebibyte === 0 ? `${bytes / mebibyte} MB` : `${bytes} bytes`;
}
