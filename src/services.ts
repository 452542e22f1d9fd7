import type { Config } from './config.js';
import { createResolver } from './dns/index.js';
import { createCaptchaVerifier } from './http/captcha.js';
import type { CaptchaRule } from './http/guard.js';
import type { Logger } from './http/log.js';
import { createDnsblEngine, queryZone } from './reputation/dnsbl.js';
import { createListStats } from './reputation/list-stats.js';
import { createZoneMonitor } from './reputation/zone-monitor.js';
import { loadZoneList } from './reputation/zones.js';
import { createCardPool } from './node/card-pool.js';
import { createCardCache } from './share/card-cache.js';
import { readPageAssets } from './pages/read-assets.js';
import { openStore } from './store/open.js';

/** About 650 cards of 35-65 KB. */
const cardCacheBytes = 32 * 1024 * 1024;

/** What tests may change without the environment (whose minimums protect real lists). */
export interface ServiceOptions {
  /** Replaces SELFTEST_INTERVAL_S (minimum 10 s) for tests that watch a resolver turn. */
  selfTestIntervalMs?: number;
  /** How often a list on hold is probed (default 2 s). */
  holdProbeMs?: number;
}

/**
 * Builds the services the app runs on from the configuration: resolver, zone list and its
 * self-test monitor, DNSBL engine, store (opened from STORE_URL), captcha rule. The first
 * self-test has run when this resolves, so `readiness` is meaningful from the first request; when
 * no list can be proven the start log says why and what to change.
 */
export async function createServices(config: Config, log: Logger, options: ServiceOptions = {}) {
  // First: a STORE_URL that cannot be opened stops the start before anything else is built.
  const store = await openStore(config.store, {
    onConnectionChange: (up, detail) =>
      log(up ? 'info' : 'error', up ? 'store connected' : 'store unavailable', { detail }),
  });
  const zones = await loadZoneList(config.zonesFile);
  const dqs = config.spamhausDqsKey ? { spamhausDqsKey: config.spamhausDqsKey } : {};
  const stats = createListStats(
    new Map(
      zones.flatMap((zone): [string, string][] => [
        [zone.zone, zone.zone],
        [queryZone(zone, config.spamhausDqsKey), zone.zone],
        // A list's IPv6 side under a zone of its own (SEM-IPV6BL) has traffic of its own.
        ...(zone.ipv6?.zone
          ? ([
              [zone.ipv6.zone, zone.ipv6.zone],
              [queryZone(zone, config.spamhausDqsKey, 'ipv6'), zone.ipv6.zone],
            ] satisfies [string, string][])
          : []),
      ]),
    ),
  );
  const resolver = createResolver({ ...config.dns, observe: stats.observe });
  const monitor = createZoneMonitor({
    resolver,
    zones,
    ...dqs,
    intervalMs: options.selfTestIntervalMs ?? config.selfTestIntervalMs,
    ...(options.holdProbeMs ? { holdProbeMs: options.holdProbeMs } : {}),
    // Reasons are public (every status endpoint): they name the setting, not the addresses.
    resolverName:
      config.dns.servers.length > 0
        ? 'the one DNS_SERVERS names'
        : 'the system resolver, as DNS_SERVERS is not set',
    stats,
    // Answers the resolver gave before it was caught lying must not answer checks any more.
    onLie: () => resolver.clear(),
    onRun: (run) => {
      const failed = run.verdicts.filter((verdict) => verdict.state === 'failed');
      log('info', 'self-test', {
        passed: run.verdicts.filter((verdict) => verdict.state === 'passed').length,
        disabled: failed.map((verdict) =>
          verdict.side === 'ipv6' ? `${verdict.zone} (IPv6)` : verdict.zone,
        ),
        inconclusive: run.verdicts.filter((verdict) => verdict.state === 'inconclusive').length,
      });
    },
    onReadiness: (readiness) => logReadiness(log, readiness, config.dns.servers),
  });
  await monitor.run();
  logReadiness(log, monitor.readiness(), config.dns.servers, true);
  monitor.start();

  const dnsbl = createDnsblEngine({
    resolver,
    zones,
    gate: (zone, side) => monitor.gate(zone, side),
    onLookup: (zone, status, side) => monitor.recordLookup(zone, status, side),
    ...dqs,
  });
  const captcha: CaptchaRule | undefined = config.captcha && {
    verifier: createCaptchaVerifier({
      provider: config.captcha.provider,
      secret: config.captcha.secret,
      ...(config.captcha.verifyUrl ? { verifyUrl: config.captcha.verifyUrl } : {}),
    }),
    siteKey: config.captcha.siteKey,
    freeChecks: config.captcha.freeChecks,
  };
  // Cards are drawn in worker threads, so a burst of them never holds the event loop (issue 13).
  const cardPool = createCardPool({ ...config.cardRender, log });
  return {
    zones,
    resolver,
    monitor,
    dnsbl,
    store,
    pageAssets: await readPageAssets(),
    cards: createCardCache({ maxBytes: cardCacheBytes, render: cardPool.render }),
    /** The threads drawing cards: `close()` ends them. */
    cardPool,
    /** Draws a card on every thread, so the first share of a fresh process is not the slow one. */
    warmUpCards: () => cardPool.warmUp(),
    ...(captcha ? { captcha } : {}),
    isConfigured: () => monitor.readiness().configured,
    readiness: () => monitor.readiness(),
    listHealth: () => monitor.lists(),
    confirmResolver: () => monitor.confirm(),
    verdictEpoch: () => monitor.epoch,
  };
}

/**
 * The operator's first warning: at start when nothing can be proven, and whenever readiness
 * changes. At `error` level, so `LOG_LEVEL=error` still shows it.
 */
function logReadiness(
  log: Logger,
  readiness: { configured: boolean; reason?: string },
  dnsServers: readonly string[],
  atStart = false,
): void {
  if (readiness.configured) {
    if (!atStart) log('info', 'configured: a blocklist has proven it answers honestly again');
    return;
  }
  log(
    'error',
    'not configured: no blocklist can be proven to answer honestly; checks answer 503 not_configured',
    { reason: readiness.reason, dnsServers: dnsServers.length > 0 ? dnsServers : 'system' },
  );
}
