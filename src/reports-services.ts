import type { Config } from './config/index.js';
import type { Resolver } from './dns/index.js';
import { inAddressRanges, type Logger } from './lib/index.js';
import type { Platform } from './platform.js';
import { type AutoWatchTiming, createAutoWatch } from './auto-watch/index.js';
import {
  createInboxes,
  createReportIntake,
  createReportReader,
  defaultReadLimits,
  unavailableReportStore,
} from './reports/index.js';
import type { ReportsServices } from './tools/index.js';
import type { Watches } from './watch/index.js';
import { reachableWith } from './webhooks/index.js';

/**
 * The reports tool's services over the platform's report store (docs/reports.md): inboxes whose
 * DNS is read past the answer cache (a record just published is seen at once), the readers within
 * REPORTS_MAX_BYTES, the intake every door shares, and the auto-watch over the watches' face.
 */
export function reportsServices(
  config: Config,
  platform: Platform,
  freshResolver: Resolver,
  shared: {
    watches: Watches;
    log: Logger;
    clock: () => Date;
    autoWatch?: Partial<AutoWatchTiming> | undefined;
  },
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
  const autoWatch = createAutoWatch({
    store: platform.store,
    reports: store,
    watches: shared.watches,
    clock: shared.clock,
    randomBytes: platform.randomBytes,
    digest: platform.digest,
    log: shared.log,
    cap: config.reports.autoWatchMax,
    publicUrl: config.publicUrl,
    basePath: config.basePath,
    operatorToken: config.watch.operatorToken,
    watchTtlMs: config.watch.ttlMs,
    ...(shared.autoWatch ? { timing: shared.autoWatch } : {}),
  });
  const intake = autoWatch.intake(
    createReportIntake({
      store,
      reader: createReportReader({
        maxBytes: config.reports.maxBytes,
        maxRecords: defaultReadLimits.maxRecords,
      }),
      clock,
      ...(mailbox ? { mailbox } : {}),
      verify: (inbox) => inboxes.verify(inbox),
    }),
  );
  return {
    store,
    inboxes,
    intake,
    autoWatch,
    maxBytes: config.reports.maxBytes,
    retentionDays: config.reports.retentionDays,
    webhookPorts: config.watch.webhookAllowPorts,
    webhookReachable: (operator) =>
      operator
        ? reachableWith((address) => inAddressRanges(address, config.watch.webhookAllowNetworks))
        : reachableWith(() => false),
  };
}
