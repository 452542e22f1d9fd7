/**
 * The mail check (docs/mail.md): DKIM, DMARC, BIMI, MTA-STS, TLS-RPT and DANE from DNS, the MX
 * hosts' STARTTLS through a probe the runtime passes in, the providers' requirements and the
 * mail score.
 */

export { isSelector } from './dkim-selectors.js';
// What the reports tool (src/reports/) reads of a domain's report records.
export { authorizesReports, reportAuthorizationName } from './dmarc-reports.js';
export { readTlsRpt, tlsRptName } from './tls-rpt.js';
export {
  checkMail,
  type MailCheckDeps,
  type MailCheckOptions,
  type MailCheckOutcome,
  mailQueryBudget,
} from './mail-check.js';
export { providerRequirements, rulePages } from './provider-requirements.js';
export { verdictOf } from './requirement-rules.js';
export { isPolicyMediaType, parsePolicy, policyPath } from './mta-sts.js';
export {
  cacheProbes,
  capacityShortage,
  defaultProbeShares,
  defaultProbeTimeoutMs,
  isCapacityShortage,
  serviceLimitOf,
  boundProbes,
  destinationBound,
  destinationBounds,
  serviceProbes,
  type ProbeFleet,
  type ProbeLeases,
  probeLeaseMs,
  type ShareFleet,
  type CachedProbes,
  type ProbeCounters,
  type ProbeShareLimits,
  probeSlots,
  probeCacheMs,
  shareProbes,
  type MailProbes,
  notProbed,
  probeMarginMs,
  isPublicAddress,
  type ProbeReach,
  probeReachable,
  reachableBy,
  type PolicyFetcher,
  type PolicyFetchRequest,
  type PolicyFetchResult,
  type SmtpProber,
  type SmtpProbeRequest,
  type TlsaAnswer,
  type TlsaLookup,
} from './probes/index.js';
