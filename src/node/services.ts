import cluster from 'node:cluster';
import { Registry } from 'prom-client';
import { ApiError } from '../http/index.js';
import type { MetricsEndpoint } from '../operations/index.js';
import { type ServiceOptions, createServices } from '../services.js';
import { answerMetricsCollects, scrapeThroughPrimary } from './cluster-metrics.js';
import type { NodeConfig } from './config.js';
import { type NodePlatform, createNodePlatform } from './platform.js';
import type { NodeMetrics } from './prometheus.js';
import { startMonitorTimer } from './monitor-timer.js';
import { startAutoWatchTimer } from './auto-watch-timer.js';
import { connectionClient, countClientConnections } from './client-connections.js';
import { smtpDoorDefaults, startMailDoors } from './reports/index.js';
import { startReportPurge } from './report-purge-timer.js';
import { listenFailureLine } from './startup-failure.js';
import { startWatchTimer } from './watch-timer.js';
import { checkRelayAtStart } from './mailer.js';

/**
 * The services of the Node server: the core's (src/services.ts) over the Node platform, plus what
 * only Node has, the card threads, the timers that run the zone monitor and the watches, GET
 * /metrics, and one `close()` for a graceful stop. `platform` is the one the configuration opens
 * unless given (the tests give one whose DNS is answered in memory).
 */
export async function createNodeServices(
  config: NodeConfig,
  logSink: (line: string) => void,
  options: ServiceOptions = {},
  given?: NodePlatform,
) {
  const platform = given ?? (await createNodePlatform(config, logSink));
  try {
    const services = await createServices(config, platform, options);
    const mailDoors = await startReportMailDoors(config, platform, services);
    // The Node platform keeps the zone monitor in this process (platform.ts: `local`).
    const monitorTimer = services.localMonitor && startMonitorTimer(services.localMonitor);
    const watchTimer = startWatchTimer(services.watches.runner, {
      clock: platform.clock,
      log: services.log,
    });
    const reportPurge = startReportPurge(platform.reports, {
      retentionDays: config.reports.retentionDays,
      clock: platform.clock,
      log: services.log,
    });
    const autoWatchTimer = startAutoWatchTimer(services.reports.autoWatch.runner, {
      log: services.log,
    });
    // Not awaited: the relay is tried while the service starts. Under WORKERS=N, by the first
    // worker only, so the line is printed once.
    if (platform.mailer && (!cluster.isWorker || cluster.worker?.id === 1)) {
      void checkRelayAtStart(platform.mailer, services.log);
    }
    return {
      ...services,
      cardPool: platform.cardPool,
      httpMetrics: platform.prometheus.httpMetrics,
      metricsEndpoint: metricsEndpoint(config, platform.prometheus),
      /** Counts a connection refused past MAX_CONNECTIONS or MAX_CONNECTIONS_PER_CLIENT. */
      connectionRefused: platform.prometheus.connectionRefused,
      /** Draws a card on every thread, so the first share of a fresh process is not the slow one. */
      warmUpCards: () => platform.cardPool.warmUp(),
      /** Ends the zone monitor's timer: no self-test starts after it. */
      stopMonitor: () => monitorTimer?.stop(),
      /** Ends the watch timer and waits for the checks and deliveries under way. */
      stopWatches: () => watchTimer.stop(),
      /** Ends the daily purge of old reports and waits for one under way. */
      stopReportPurge: () => reportPurge.stop(),
      /** Ends the reports' auto-watch timer and waits for the run under way. */
      stopAutoWatch: () => autoWatchTimer.stop(),
      /** The reports' SMTP listener and IMAP poller, when configured. */
      mailDoors,
      /** Closes the SMTP listener and the IMAP poller, letting what they took in be kept. */
      stopMailDoors: () => mailDoors.stop(),
      /**
       * Stops the self-test, watch, purge and auto-watch timers, the card threads and the DNS sockets, then
       * lets go of the stores.
       */
      async close() {
        monitorTimer?.stop();
        await Promise.all([
          watchTimer.stop(),
          reportPurge.stop(),
          autoWatchTimer.stop(),
          mailDoors.stop(),
        ]);
        platform.closeDns();
        await platform.cardPool.close();
        await Promise.all([platform.store.close(), platform.reports.close()]);
      },
    };
  } catch (error) {
    platform.closeDns();
    await platform.cardPool.close();
    await Promise.all([platform.store.close(), platform.reports.close()]);
    throw error;
  }
}

/**
 * The reports' mail doors (docs/reports.md, "How reports come in"): SMTP with REPORTS_SMTP_PORT,
 * capped per client as the HTTP server is (an IPv4 address or an IPv6 /64, at most a few
 * connections each), IMAP with REPORTS_IMAP_URL, polled by one process of several in each
 * interval. A listener that cannot listen stops the start with the line a taken PORT gets.
 */
async function startReportMailDoors(
  config: NodeConfig,
  platform: NodePlatform,
  services: Awaited<ReturnType<typeof createServices>>,
) {
  const { reports } = config;
  const { mailbox } = config.reports;
  const smtpAddress = { port: reports.smtpPort ?? 0, host: reports.smtpHost };
  try {
    return await startMailDoors({
      intake: services.reports.intake,
      log: services.log,
      maxBytes: reports.maxBytes,
      ...(reports.smtpPort !== undefined && mailbox
        ? {
            smtp: {
              ...smtpAddress,
              name: mailbox.domain,
              clients: countClientConnections(smtpDoorDefaults.maxPerClient),
              clientOf: connectionClient,
              ...(reports.tlsCert && reports.tlsKey
                ? { tlsFiles: { cert: reports.tlsCert, key: reports.tlsKey } }
                : {}),
            },
          }
        : {}),
      ...(reports.imapUrl && mailbox
        ? {
            imap: {
              url: reports.imapUrl,
              intervalMs: reports.imapIntervalMs,
              doneFolder: reports.imapDone,
              clock: platform.clock,
              ...(config.workers > 1 ? { sharedStore: platform.store } : {}),
            },
          }
        : {}),
    });
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException).code !== 'string') throw error;
    throw new Error(
      listenFailureLine(error, {
        ...smtpAddress,
        variables: { port: 'REPORTS_SMTP_PORT', host: 'REPORTS_SMTP_HOST' },
      }),
      { cause: error },
    );
  }
}

/**
 * GET /metrics of this process, or under WORKERS=N of every worker, summed by the primary
 * (src/node/cluster-metrics.ts).
 */
function metricsEndpoint(config: NodeConfig, prometheus: NodeMetrics): MetricsEndpoint {
  const { registry } = prometheus;
  if (cluster.isWorker) answerMetricsCollects(registry);
  return {
    allow: config.metrics.allow,
    ...(config.metrics.token ? { token: config.metrics.token } : {}),
    scrape: async () => ({
      contentType: Registry.PROMETHEUS_CONTENT_TYPE,
      text: cluster.isWorker ? await throughPrimary() : await registry.metrics(),
    }),
  };
}

/** A primary too slow to sum the workers' metrics is a busy service, not a failed one. */
async function throughPrimary(): Promise<string> {
  try {
    return await scrapeThroughPrimary();
  } catch {
    throw new ApiError('busy', "the workers' metrics did not come in time; try again", {
      'Retry-After': '1',
    });
  }
}

export type NodeServices = Awaited<ReturnType<typeof createNodeServices>>;
