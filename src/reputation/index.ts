/**
 * The domain, no HTTP: what other folders use of the targets, lookups, lists, SPF, checks and
 * their result schemas.
 */

export {
  type AddressSummary,
  type CheckFailure,
  type CheckOutcome,
  checkDomain,
  checkIp,
  checkPoolAddresses,
  discoverPool,
  type DomainCheckDeps,
  type DomainCheckResult,
  type IpCheckDeps,
  type IpCheckResult,
  type PoolCheckResult,
  type PoolDiscoveryOptions,
  reverseName,
} from './checks/index.js';
export {
  bundledZoneList,
  coverageOf,
  createDnsblEngine,
  createListStats,
  createMonitorReplica,
  createZoneMonitor,
  type DnsblEngine,
  type DnsblZone,
  type ListCoverage,
  type ListHealth,
  type ListResult,
  type ListSide,
  type ListStatus,
  type ListVerdicts,
  loadZoneList,
  type MonitorRemote,
  type MonitorReport,
  type MonitorView,
  parseZoneList,
  queryZone,
  type ResolverConfirmation,
  type ServiceReadiness,
  targetLabel,
  type ZoneMonitor,
} from './lists/index.js';
export { createDeadline, noPublicAddress } from './lookups/index.js';
export {
  bySeverity,
  type Confidence,
  domainCheckResultSchema,
  ipCheckResultSchema,
  poolCheckResultSchema,
  type PoolDiscoverResult,
  poolDiscoverResultSchema,
  type ScoreFactor,
  type Severity,
  severityRank,
  type Verdict,
  worstSeverity,
} from './results/index.js';
export {
  canonicalIpv6,
  displayName,
  isDottedQuad,
  isIpv6,
  parseHostName,
  parseIpv6,
  parseTarget,
  reversedNibbles,
  reversedOctets,
} from './targets/index.js';
