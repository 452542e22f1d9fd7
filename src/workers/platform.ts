import type { Config } from '../config.js';
import { createDohTlsaLookup, createDohTransport } from '../dns/index.js';
import { defaultProbeTimeoutMs, probeReachable } from '../mail-probes.js';
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
import { createFetchPolicyFetcher } from './mail-policy-fetch.js';
import { bundledPageAssets } from './page-assets.js';
import type { StoreObject } from './store-object.js';
import type { WatchClockObject } from './watch-clock-object.js';
import { createFetchWebhookSender } from './webhook-sender.js';

/** The bindings wrangler.toml declares, beside the configuration's vars. */
export interface WorkerBindings {
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
    mail: workersMailProbes(config),
  };
}

/**
 * The mail check's probes on Workers (docs/mail.md): TCP to port 25 is not allowed there, so
 * every MX host reads `not_probed` with that reason; the MTA-STS policy over `fetch`; TLSA with
 * the AD bit over DoH to DOH_URL (RFC 8484 carries the whole message, header bits included).
 */
function workersMailProbes(config: Config): Platform['mail'] {
  const reachable = probeReachable(config.mail.probeAllowNetworks);
  return {
    reachable,
    timeoutMs: defaultProbeTimeoutMs,
    smtp: { unavailable: 'TCP to port 25 is not allowed on Cloudflare Workers' },
    policy: createFetchPolicyFetcher({
      port: config.mail.probeHttpsPort,
      timeoutMs: defaultProbeTimeoutMs,
      reachable,
    }),
    tlsa: createDohTlsaLookup({
      endpoints: config.dns.dohUrls,
      timeoutMs: config.dns.timeoutMs,
      maxPerCheck: edgeTlsaPerCheck,
    }),
  };
}
