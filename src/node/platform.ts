import { createHash } from 'node:crypto';
import { batchedRandomBytes, createLogger } from '../lib/index.js';
import { createNodeDns, parseServerAddress, systemServers } from './dns/index.js';
import { observeStore } from '../operations/index.js';
import { type Platform, webCrypto } from '../platform.js';
import { bundledZoneList } from '../reputation/index.js';
import { openReportStore } from './reports/index.js';
import { openStore } from './store/index.js';
import { type CardPool, createCardPool } from './cards/index.js';
import { type NodeConfig, reportsLocation } from './config.js';
import { createNodeMailer } from './mailer.js';
import { readPageAssetSources } from './page-assets.js';
import { createNodeProbes, type DnsServerAddress } from './probes/index.js';
import { createPrometheusMetrics, type NodeMetrics } from './prometheus.js';
import { createNodeWebhookSender } from './webhook-sender.js';
import { readZoneListFile } from './zone-file.js';

/**
 * The Node adapter (docs/edge.md#the-platform-one-dependency-two-adapters): the platform the Node
 * server runs the core on. DNS over UDP on node:dgram (`DNS_TRANSPORT=udp`) or DoH over HTTP/2, the
 * store STORE_URL names and the report store REPORTS_URL names, cards drawn in worker threads with
 * sharp, the zone list bundled or read from DNSBL_ZONES_FILE, the zone monitor in this process on a
 * timer.
 */

export interface NodePlatform extends Platform {
  /** The report store REPORTS_URL names (or the default beside STORE_URL's file). */
  reports: NonNullable<Platform['reports']>;
  /** The threads drawing cards: `close()` ends them. */
  cardPool: CardPool;
  /** The metrics' registry and what only Node measures (docs/operations.md). */
  prometheus: NodeMetrics;
  /** Closes the DNS sockets or HTTP/2 sessions. */
  closeDns(): void;
}

/** Drawn cards a Node process keeps: about 650 cards of 35-65 KB. */
export const cardCacheBytes = 32 * 1024 * 1024;

/**
 * Opens what the configuration names. A STORE_URL that cannot be opened, or a zone list file that
 * cannot be read, rejects with its one-line reason before anything else is built.
 */
export async function createNodePlatform(
  config: NodeConfig,
  logSink: (line: string) => void,
): Promise<NodePlatform> {
  const log = createLogger(config.logLevel, logSink);
  const prometheus = createPrometheusMetrics();
  const store = await openStore(config.store, {
    namespace: config.storeNamespace,
    onConnectionChange: (up, detail) =>
      log(up ? 'info' : 'error', up ? 'store connected' : 'store unavailable', { detail }),
    onExposedFile: (file, fix) => log('error', 'store file readable by other users', { file, fix }),
  });
  const reports = await openReportStore(reportsLocation(config), {
    onExposedFile: (file, fix) =>
      log('error', 'reports file readable by other users', { file, fix }),
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const zones = config.zonesFile ? await readZoneListFile(config.zonesFile) : bundledZoneList();
  const { dns } = config;
  const doh = dns.transport === 'doh';
  const wire = createNodeDns(dns);
  // Cards are drawn in worker threads, so a burst of them never holds the event loop
  // (docs/http-hardening.md).
  const cardPool = createCardPool({ ...config.cardRender, log });
  prometheus.readCardQueue(() => cardPool.load().waiting);
  return {
    dns: {
      transport: wire.transport,
      maxInFlight: wire.maxInFlight,
      description: doh
        ? 'the one DOH_URL names'
        : dns.servers.length > 0
          ? 'the one DNS_SERVERS names'
          : 'the system resolver, as DNS_SERVERS is not set',
      setting: doh ? 'DOH_URL' : 'DNS_SERVERS',
      offlineDemo: 'npm run demo',
      endpoints: doh ? dns.dohUrls : dns.servers,
      asksNameServers: !doh,
    },
    store: observeStore(store, config.store.kind, prometheus.metrics),
    reports,
    renderCard: cardPool.render,
    cardCacheBytes,
    cardPool,
    prometheus,
    metrics: prometheus.metrics,
    closeDns: wire.close,
    ...webCrypto,
    // One process serves every request: tokens come out of a batch of random bytes.
    randomBytes: batchedRandomBytes(webCrypto.randomBytes),
    // The ETag of every stored answer (src/tools/common/cacheable.ts), hashed on each GET:
    // node:crypto's one call, not Web Crypto's promise and thread-pool job, which cost a GET by
    // token about 65 µs of its CPU (docs/benchmarks.md, "Run of 2026-11-26, before the second
    // speed pass").
    digest: async (bytes) => createHash('sha256').update(bytes).digest(),
    monitor: { kind: 'local' },
    logSink,
    clock: () => new Date(),
    zones,
    pageAssets: await readPageAssetSources(),
    webhooks: createNodeWebhookSender(),
    probes: createNodeProbes({
      allowNetworks: config.probes.allowNetworks,
      timeoutMs: config.smtpProbe.timeoutMs,
      smtpPort: config.smtpProbe.port,
      httpsPort: config.probes.httpsPort,
      publicUrl: config.publicUrl,
      tlsaServers: doh ? [] : tlsaServers(dns.servers),
      dnsTimeoutMs: dns.timeoutMs,
      ...(wire.tlsa ? { dohTlsa: wire.tlsa } : {}),
    }),
    ...(config.watch.smtpUrl
      ? { mailer: createNodeMailer(config.watch.smtpUrl, config.watch.webhookTimeoutMs) }
      : {}),
  };
}

/** The resolvers TLSA is asked over UDP: DNS_SERVERS, or the system's. */
function tlsaServers(servers: readonly string[]): DnsServerAddress[] {
  return (servers.length > 0 ? servers : systemServers())
    .map(parseServerAddress)
    .filter((server): server is DnsServerAddress => server !== undefined);
}
