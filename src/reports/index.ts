/**
 * The reports tool's domain (docs/reports.md): DMARC aggregate and TLS-RPT reports read, kept and
 * summed per inbox. Nothing here knows HTTP, SMTP or IMAP: the doors are the tools' routes and
 * the runtime adapters.
 */

export { createMemoryReportStore } from './memory-store.js';
export {
  type BucketRange,
  type Grain,
  lastMonthAsDays,
  type PeriodBuckets,
  periodBuckets,
} from './period-buckets.js';
export { reportMigrations, ReportSchemaError } from './report-schema.js';
export { defaultReportsUrl, parseReportsUrl, type ReportStoreLocation } from './reports-url.js';
// What a store outside this folder (PostgreSQL's) builds on: the rollups and their reading.
export {
  dmarcTotalsOf,
  type DmarcDayRow,
  type SourceRow,
  sourcesOf,
  tlsTotalsOf,
} from './rollup-reads.js';
export {
  boundRow,
  mergedRows,
  type RollupRow,
  rollupRows,
  type RollupTable,
  rollupTables,
  type SourceNames,
} from './rollup-rows.js';
export { decodeRollup, encodeRollup, reportRollup, type ReportRollup } from './rollups.js';
export { autoWatchText, inboxOf, type InboxRow, recordsOf } from './stored-rows.js';
export {
  type Authorization,
  inboxAddress,
  inboxIdOf,
  type InboxDns,
  inboxQueryBudget,
  parseReportsMailbox,
  type ReportsMailbox,
  type SuggestedRecord,
} from './rua/index.js';
export {
  createInboxes,
  type InboxDnsAnswer,
  type Inboxes,
  type InboxesDeps,
  type KeyCheck,
} from './inboxes.js';
export {
  coversDomain,
  createReportIntake,
  type IntakeDeps,
  type ReportReader,
} from './report-intake.js';
export { mattering, sourcesThatMatter } from './sources.js';
export { unavailableReportStore } from './unavailable-store.js';
export type { IntakeOutcome, IntakeRefusal, ReportIntake, TakenReport } from './intake.js';
export {
  createReportReader,
  defaultReadLimits,
  type DkimAuthResult,
  type Disposition,
  type DmarcAggregateReport,
  type DmarcRow,
  type ParsedReport,
  type PublishedPolicy,
  readMessage,
  reportDate,
  reportDomains,
  type ReportKind,
  reportMessages,
  ReportReadError,
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
