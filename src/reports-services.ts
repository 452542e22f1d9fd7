import type { Config } from './config/index.js';
import type { Resolver } from './dns/index.js';
import type { Platform } from './platform.js';
import {
  createInboxes,
  createReportIntake,
  createReportReader,
  defaultReadLimits,
  unavailableReportStore,
} from './reports/index.js';
import type { ReportsServices } from './tools/index.js';

/**
 * The reports tool's services over the platform's report store (docs/reports.md): inboxes whose
 * DNS is read past the answer cache (a record just published is seen at once), the readers within
 * REPORTS_MAX_BYTES, and the intake every door shares.
 */
export function reportsServices(
  config: Config,
  platform: Platform,
  freshResolver: Resolver,
): ReportsServices {
  const store =
    platform.reports ??
    unavailableReportStore('this deployment keeps no reports yet (no report store on Workers)');
  const clock = platform.clock;
  const { mailbox } = config.reports;
  const inboxes = createInboxes({
    store,
    resolver: freshResolver,
    randomBytes: platform.randomBytes,
    digest: platform.digest,
    clock,
    ...(mailbox ? { mailbox } : {}),
    deadlineMs: config.checkDeadlineMs,
    ...(config.watch.operatorToken ? { operatorToken: config.watch.operatorToken } : {}),
  });
  const intake = createReportIntake({
    store,
    reader: createReportReader({
      maxBytes: config.reports.maxBytes,
      maxRecords: defaultReadLimits.maxRecords,
    }),
    clock,
    ...(mailbox ? { mailbox } : {}),
    verify: (inbox) => inboxes.verify(inbox),
  });
  return {
    store,
    inboxes,
    intake,
    maxBytes: config.reports.maxBytes,
    retentionDays: config.reports.retentionDays,
    webhookPorts: config.watch.webhookAllowPorts,
  };
}
