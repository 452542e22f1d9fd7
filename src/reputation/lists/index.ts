/**
 * The blocklists: the zone list, the DNSBL engine and its return codes and grades, the self-test
 * and the zone monitor that decide which lists count, and the coverage a result reports.
 */

export {
  askableCount,
  coverageOf,
  describeCoverage,
  disabledByTest,
  isInformational,
  type ListCoverage,
  missingParts,
  trustWords,
  type Vouching,
  vouchingOf,
} from './coverage.js';
export {
  answeredUsably,
  createDnsblEngine,
  type DnsblEngine,
  type DnsblReport,
  type ListResult,
  type ListStatus,
  listsAsked,
  queryZone,
  targetLabel,
} from './dnsbl.js';
export { dnswlCategories } from './grades.js';
export { askableZones, hideKeys, type ListKeys, missingKey } from './list-keys.js';
export {
  type CatalogueEntry,
  type ListHealth,
  listHealthSchema,
  type ListState,
  type ServiceReadiness,
  serviceReadinessSchema,
} from './list-health-schemas.js';
export { type ListSide, sideName, sideZone } from './list-sides.js';
export { createListStats, queriedZone } from './list-stats.js';
export type { ResolverSetting } from './resolver-diagnosis.js';
export { lookupPageOf, type OperatorPages, operatorPages } from './operator-pages.js';
export { createMonitorReplica, type MonitorRemote, type MonitorReport } from './monitor-replica.js';
export type { ResolverConfirmation } from './resolver-confirmation.js';
export {
  createZoneMonitor,
  type ListVerdicts,
  type MonitorView,
  type ZoneMonitor,
} from './zone-monitor.js';
export { bundledZoneList, type DnsblZone, loadZoneList, parseZoneList } from './zones.js';
