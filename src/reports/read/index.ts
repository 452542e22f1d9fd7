/**
 * Reports read from bytes (docs/reports.md, "What is read"): DMARC aggregate reports (XML) and
 * TLS reports (JSON), bare, gzipped, zipped or attached to a message, bounded by `ReadLimits`;
 * and the model every other part of the reports tool takes them in.
 */

export {
  type ReadLimits,
  defaultReadLimits,
  type ReadRefusalCode,
  ReportReadError,
} from './errors.js';
export { type ReadMessage, reportMediaTypes } from './message.js';
export {
  type DkimAuthResult,
  type Disposition,
  type DmarcAggregateReport,
  type DmarcRow,
  type ParsedReport,
  type PublishedPolicy,
  reportDate,
  reportDomains,
  type ReportKind,
  reportMessages,
  type SpfAuthResult,
  type TlsFailure,
  type TlsPolicy,
  type TlsReport,
  type Via,
  vias,
} from './model.js';
export { createReportReader, readMessage, readReports } from './read.js';
export { createReportXmlParser, reportXmlOptions } from './xml.js';
