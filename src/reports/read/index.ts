/**
 * Reports read from bytes (docs/reports.md, "What is read"): the model every other part of the
 * reports tool takes them in.
 */

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
