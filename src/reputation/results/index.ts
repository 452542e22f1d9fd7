/** The results as zod schemas (their types and the OpenAPI document) and the bounds on their size. */

// Every bound on a result's size: the checks apply them, the schemas state them.
export * from './result-limits.js';
export {
  type AddressSummary,
  addressSummarySchema,
  type AllowlistEntry,
  type Confidence,
  type DmarcPolicy,
  type DmarcRecord,
  type DomainCheckResult,
  domainCheckResultSchema,
  type DomainScore,
  type Fcrdns,
  type Grade,
  type IpCheckResult,
  ipCheckResultSchema,
  type IpScore,
  type Listing,
  type ListResult,
  listResultSchema,
  type ListStatus,
  listStatusSchema,
  type MailExchanger,
  type PoolCheckResult,
  poolCheckResultSchema,
  type PoolDiscoverResult,
  poolDiscoverResultSchema,
  type PoolDiscovery,
  type PoolStopReason,
  type ReverseDns,
  type Score,
  type ScoreFactor,
  type SenderRange,
  severities,
  type Severity,
  type SpfError,
  type SpfExpansion,
  type SpfSummary,
  type SpfTermAt,
  type TrustLevel,
  trustLevels,
  type Verdict,
  verdictSchema,
} from './result-schemas.js';
export { bySeverity, severityRank, worstSeverity } from './severity.js';
// The mail check's result (docs/mail.md).
export * from './mail-schemas.js';
