import type { Guard } from '../../http/index.js';
import type { Site } from '../../pages/index.js';
import type { Inboxes, ReportIntake, ReportStore } from '../../reports/index.js';
import type { AutoWatch } from '../../auto-watch/index.js';
import type { CheckReadiness, IpCheckDeps } from '../../reputation/index.js';
import type { PortRange, Reachable } from '../../webhooks/index.js';
import type { ResultStore } from '../common/index.js';

/** What the reports tool's services are, built by src/services.ts over the runtime's store. */
export interface ReportsServices {
  store: ReportStore;
  inboxes: Inboxes;
  intake: ReportIntake;
  /** The inboxes' auto_watch acted on: their sources' watches and failing sources' notices. */
  autoWatch: AutoWatch;
  /** REPORTS_MAX_BYTES: the most an upload's body may be. */
  maxBytes: number;
  /** REPORTS_RETENTION_DAYS: how long a report is kept from its receipt. */
  retentionDays: number;
  /** WEBHOOK_ALLOW_PORTS: the ports an auto_watch webhook may name, as a watch's. */
  webhookPorts: readonly PortRange[];
  /** Where an auto_watch webhook may point: the operator's inbox reaches WEBHOOK_ALLOW_NETWORKS. */
  webhookReachable: (operator: boolean) => Reachable;
}

/**
 * What the reports tool's routes need: its services, the quota guard (an inbox's creation is
 * charged as a check is), the pages' site, and what a source's IP check runs with (the result
 * cache it is read from and kept in, the resolver's readiness and confirmation, the epoch).
 */
export interface ReportsToolDeps extends IpCheckDeps, CheckReadiness {
  reports: ReportsServices;
  guard: Guard;
  site: Site;
  results: ResultStore;
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
  verdictEpoch?: () => number;
}
