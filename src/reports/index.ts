/**
 * The reports tool's domain (docs/reports.md): DMARC aggregate and TLS-RPT reports read, kept and
 * summed per inbox. Nothing here knows HTTP, SMTP or IMAP: the doors are the tools' routes and
 * the runtime adapters.
 */

export { createMemoryReportStore } from './memory-store.js';
export type { IntakeOutcome, IntakeRefusal, ReportIntake, TakenReport } from './intake.js';
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
} from './read/index.js';
export type {
  DmarcTotals,
  Inbox,
  Period,
  ReceivedReport,
  ReportStore,
  SourceTotals,
  TlsTotals,
} from './store.js';
