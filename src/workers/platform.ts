import type { Config } from '../config/index.js';
import { createDohTransport } from '../dns/index.js';
import { noMetrics } from '../operations/index.js';
import { type Platform, webCrypto } from '../platform.js';
import { bundledZoneList } from '../reputation/index.js';
import { renderCard } from './card-render.js';
import { createDurableStore } from './durable-store.js';
import {
  edgeCardCacheBytes,
  edgeMaxInFlight,
  edgeMaxInFlightPerList,
  edgeTlsaPerCheck,
} from './limits.js';
import type { ZoneMonitorObject } from './monitor-object.js';
import { monitorRemote } from './monitor-remote.js';
import { bundledPageAssets } from './page-assets.js';
import type { StoreObject } from './store-object.js';
import type { WatchClockObject } from './watch-clock-object.js';
import { createFetchWebhookSender } from './webhook-sender.js';
import { createWorkersMailer } from './mailer.js';
import { createWorkersProbes } from './probes/index.js';
import { createDurableReportStore, type DurableReportStoreBindings } from './reports/index.js';

/** The bindings wrangler.toml declares, beside the configuration's vars. */
export interface WorkerBindings extends DurableReportStoreBindings {
  STORE: DurableObjectNamespace<StoreObject>;
  ZONE_MONITOR: DurableObjectNamespace<ZoneMonitorObject>;
  WATCH_CLOCK: DurableObjectNamespace<WatchClockObject>;
}

/**
 * The Workers adapter (docs/edge.md#the-platform-one-dependency-two-adapters): DNS over HTTPS to
 * DOH_URL through the runtime's fetch, the store in Durable Objects, cards by satori and
 * resvg-wasm, the bundled zone list, and the zone monitor in a Durable Object run on its alarm,
 * read through a replica in every isolate.
 */
export function createWorkersPlatform(
  config: Config,
  bindings: WorkerBindings,
  options: { storePrefix?: string; clock?: () => Date; logSink?: (line: string) => void } = {},
): Platform {
  return {
    dns: {
      transport: createDohTransport({
        endpoints: config.dns.dohUrls,
        timeoutMs: config.dns.timeoutMs,
        retries: config.dns.retries,
      }),
      maxInFlight: edgeMaxInFlight,
      maxInFlightPerList: edgeMaxInFlightPerList,
      description: 'the one DOH_URL names',
      setting: 'DOH_URL',
      endpoints: config.dns.dohUrls,
      asksNameServers: false,
    },
    store: createDurableStore(
      bindings.STORE,
      options.storePrefix ? { prefix: options.storePrefix } : {},
    ),
    // Each inbox in a Durable Object of its own, a directory beside them (docs/edge.md).
    reports: createDurableReportStore(bindings, {
      ...(options.storePrefix ? { prefix: options.storePrefix } : {}),
      retentionMs: config.reports.retentionDays * 86_400_000,
    }),
    renderCard,
    cardCacheBytes: edgeCardCacheBytes,
    ...webCrypto,
    monitor: { kind: 'remote', remote: monitorRemote(bindings.ZONE_MONITOR, config) },
    // No /metrics on Workers (docs/edge.md): Cloudflare's analytics count the requests.
    metrics: noMetrics,
    logSink: options.logSink ?? ((line) => console.log(line)),
    clock: options.clock ?? (() => new Date()),
    zones: bundledZoneList(),
    pageAssets: bundledPageAssets,
    webhooks: createFetchWebhookSender(),
    probes: createWorkersProbes({
      allowNetworks: config.probes.allowNetworks,
      httpsPort: config.probes.httpsPort,
      dohUrls: config.dns.dohUrls,
      dnsTimeoutMs: config.dns.timeoutMs,
      tlsaPerCheck: edgeTlsaPerCheck,
    }),
    ...(config.watch.smtpUrl && !onPort25(config.watch.smtpUrl)
      ? { mailer: createWorkersMailer(config.watch.smtpUrl, config.watch.webhookTimeoutMs) }
      : {}),
  };
}

/**
 * Cloudflare refuses outbound TCP to port 25 (docs/edge.md, "E-mail on Workers"): an SMTP_URL
 * there could never send, so the Worker has no sender and refuses `email` as without SMTP_URL.
 */
function onPort25(smtpUrl: string): boolean {
  return new URL(smtpUrl).port === '25';
}
