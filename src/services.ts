import type { Config } from './config/index.js';
import {
  type DnsStatus,
  logUnreachable,
  type QueryObserver,
  type Resolver,
  withFreshAnswers,
  withObserver,
  withResolverStack,
} from './dns/index.js';
import { type CaptchaRule, createCaptchaVerifier } from './http/index.js';
import { createLogger, inAddressRanges, type Logger } from './lib/index.js';
import {
  createCallerHash,
  createCallerIds,
  listStateSamples,
  observeCardRender,
  observeDnsbl,
} from './operations/index.js';
import type { Platform } from './platform.js';

export { logUnreachable };
import {
  askableZones,
  createDnsblEngine,
  createListStats,
  createMonitorReplica,
  createZoneMonitor,
  type DnsblZone,
  type ListKeys,
  type ListSide,
  type ListVerdicts,
  queriedZone,
  probeMarginMs,
  serviceProbes,
  queryZone,
  type ZoneMonitor,
} from './reputation/index.js';
import { preparePageAssets } from './pages/index.js';
import { createCardCache, russianMeanings } from './share/index.js';
import { reportsServices } from './reports-services.js';
import type { AutoWatchTiming } from './auto-watch/index.js';
import {
  type LinksOf,
  type RunnerOptions,
  createRecheck,
  configuredLinks,
  createWatches,
  listCatalogue,
  watchLinks,
} from './watch/index.js';

/** What tests may change without the environment (whose minimums protect real lists). */
export interface ServiceOptions {
  /** Replaces SELFTEST_INTERVAL_S (minimum 10 s) for tests that watch a resolver turn. */
  selfTestIntervalMs?: number;
  /** How often a list on hold is probed (default 2 s). */
  holdProbeMs?: number;
  /** The links events give to a watch's page and badge (default: under PUBLIC_URL + BASE_PATH). */
  watchLinks?: LinksOf;
  /** The watches' clock instead of the platform's: tests move it past a watch's expires_at. */
  watchClock?: () => Date;
  /**
   * Shorter webhook retries (5 s, 1 h, 24 h), confirmation e-mail retries (5 s to 15 min) and
   * leases than the real ones.
   */
  watchRunner?: Partial<RunnerOptions> & {
    retryDelaysMs?: readonly number[];
    confirmRetryDelaysMs?: readonly number[];
  };
  /** A shorter debounce after reports come in, and smaller runs, than the auto-watch's own. */
  autoWatch?: Partial<AutoWatchTiming>;
}

/**
 * Builds the services the app runs on from the configuration and the platform, on every runtime:
 * the resolver over the platform's DNS transport, the list verdicts (a zone monitor here, or a
 * replica of one elsewhere), the DNSBL engine, the captcha rule and the card cache. The first
 * self-test has run when this resolves with a local monitor, so `readiness` is meaningful from
 * the first request; when no list can be proven the log says why and what to change.
 */
export async function createServices(
  config: Config,
  platform: Platform,
  options: ServiceOptions = {},
) {
  const log = createLogger(config.logLevel, platform.logSink, platform.clock);
  const zones = platform.zones;
  const keys = config.listKeys;
  const perList = platform.dns.maxInFlightPerList;
  const { metrics } = platform;
  const { offlineDemo } = platform.dns;
  const asked = queryNames(zones, keys);
  // Each list's answered queries on the wire, timed (their outcomes per check: observeDnsbl).
  const listOf = queriedZone(asked);
  const timeQuery = (list: string | undefined, status: DnsStatus, ms: number) => {
    if (list !== undefined && status !== 'timeout') metrics.listQuery(list, ms / 1000);
  };
  // Only A queries are observed: a list's look-ups (its TXT reasons follow listings).
  const resolverOver = (observe: QueryObserver) =>
    withResolverStack(withObserver(platform.dns.transport, observe, ['A']), {
      maxInFlight: platform.dns.maxInFlight,
      onUnreachable: (report) => logUnreachable(log, report),
      ...(perList
        ? {
            zoneLimit: {
              // Keyed lists without their key are never asked (list-keys.ts).
              zones: [...new Set(queryNames(askableZones(zones, keys), keys).keys())],
              maxPerZone: perList,
            },
          }
        : {}),
    });

  let resolver;
  let verdicts: ListVerdicts;
  /** The zone monitor when it lives here: the platform schedules it (src/node/monitor-timer.ts). */
  let localMonitor: ZoneMonitor | undefined;
  /** Reads the remote monitor's view when due (a replica); a local monitor is always current. */
  let refreshVerdicts = async () => {};
  /** Sends a replica's reports; nothing for a local monitor. */
  let flushVerdicts = async () => {};

  if (platform.monitor.kind === 'local') {
    const stats = createListStats(asked);
    // The query's list is found once, for the list's stats and its metric.
    const local = resolverOver((name, _type, status, ms) => {
      const list = listOf(name);
      if (list === undefined) return;
      stats.observeList(list, status, ms);
      timeQuery(list, status, ms);
    });
    const monitor = createZoneMonitor({
      resolver: local,
      zones,
      keys,
      intervalMs: options.selfTestIntervalMs ?? config.selfTestIntervalMs,
      maxTimeoutMs: config.dns.timeoutMs,
      ...(options.holdProbeMs ? { holdProbeMs: options.holdProbeMs } : {}),
      // Reasons are public (every status endpoint): they name the setting, not the addresses.
      resolverName: platform.dns.description,
      resolverSetting: platform.dns.setting,
      stats,
      // Answers the resolver gave before it was caught lying must not answer checks any more.
      onLie: () => local.clear(),
      onRun: (run) => logRun(log, run.verdicts),
      onReadiness: (readiness) =>
        logReadiness(log, readiness, platform.dns.endpoints, { offlineDemo }),
    });
    await monitor.run();
    logReadiness(log, monitor.readiness(), platform.dns.endpoints, { atStart: true, offlineDemo });
    resolver = local;
    verdicts = monitor;
    localMonitor = monitor;
  } else {
    let observe: QueryObserver = () => {};
    const remote = resolverOver((name, type, status, ms) => {
      observe(name, type, status, ms);
      if (status !== 'timeout') timeQuery(listOf(name), status, ms);
    });
    const replica = createMonitorReplica({
      remote: platform.monitor.remote,
      zones,
      resolver: remote,
      keys,
    });
    observe = replica.observe;
    resolver = remote;
    verdicts = replica;
    refreshVerdicts = () => replica.refresh();
    flushVerdicts = () => replica.flush();
  }

  // Every check's list answers are counted, a watch's re-check's too.
  const dnsblOver = (over: Resolver) =>
    observeDnsbl(
      createDnsblEngine({
        resolver: over,
        zones,
        gate: (zone, side) => verdicts.gate(zone, side),
        onLookup: (zone, status, side) => verdicts.recordLookup(zone, status, side),
        keys,
      }),
      metrics,
    );
  metrics.readListStates(() => listStateSamples(verdicts.lists()));
  const dnsbl = dnsblOver(resolver);
  // A watch's re-check hears the lists now: past the DNS answer cache, with an engine of its own.
  const freshResolver = withFreshAnswers(resolver);
  // A key makes ids for one WATCH_TTL_DAYS, so a live watch's id is under this key or the last.
  const callerIds = createCallerIds({
    store: platform.store,
    clock: options.watchClock ?? platform.clock,
    randomBytes: platform.randomBytes,
    periodMs: config.watch.ttlMs,
  });
  // The probe slots shared fairly (a caller's and a network's shares and the destinations' bounds
  // counted in the store, shared by every worker and machine), the mail tool's probes from the
  // probe cache, a watch's afresh.
  const { probes, fresh: freshProbes } = serviceProbes(
    platform.probes,
    { store: platform.store, idOf: callerIds.idOf, randomBytes: platform.randomBytes },
    () => platform.clock().getTime(),
  );
  const watches = createWatches({
    // An alert in Russian says what a list's code means in Russian, as the pages do.
    meanings: russianMeanings(zones),
    store: platform.store,
    clock: options.watchClock ?? platform.clock,
    randomBytes: platform.randomBytes,
    digest: platform.digest,
    limits: config.watch,
    recheck: createRecheck({
      resolver: freshResolver,
      dnsbl: dnsblOver(freshResolver),
      deadlineMs: config.checkDeadlineMs,
      now: platform.clock,
      isConfigured: () => verdicts.readiness().configured,
      notConfiguredReason: () => verdicts.readiness().reason,
      confirmResolver: () => verdicts.confirm(),
      catalogue: listCatalogue(zones),
      // A mail watch probes as the mail tool does, with the runtime's probes (on Workers, no SMTP).
      probes: {
        reachable: freshProbes.reachable,
        smtp: freshProbes.smtp,
        policy: freshProbes.policy,
        ...(freshProbes.tlsa ? { tlsa: freshProbes.tlsa } : {}),
        probeDeadlineMs: freshProbes.timeoutMs + probeMarginMs,
      },
    }),
    // A runner whose checks would say not_configured leaves the watches to one that can check.
    canCheck: () => verdicts.readiness().configured,
    links: options.watchLinks ?? watchLinks(config.publicUrl, config.basePath),
    sender: platform.webhooks,
    // E-mail alerts where the platform has a sender (Node with SMTP_URL; docs/watches.md,
    // "E-mail"), their links under PUBLIC_URL, which SMTP_URL requires.
    ...(platform.mailer && config.watch.alertFrom && config.publicUrl
      ? {
          email: {
            sender: platform.mailer,
            from: config.watch.alertFrom,
            links: configuredLinks(config.publicUrl, config.basePath),
            onAttempt: (outcome: 'sent' | 'failed') => metrics.watchEmail(outcome),
          },
        }
      : {}),
    resolver,
    allowedNetwork: (address) => inAddressRanges(address, config.watch.webhookAllowNetworks),
    callerIds,
    log,
    ...(options.watchRunner ? { runner: options.watchRunner } : {}),
    onChecked: (lagMs) => metrics.watchChecked(lagMs / 1000),
    onAttempt: (outcome) => metrics.watchDelivery(outcome),
    onDropped: (reason) => metrics.watchDeliveryDropped(reason),
    onBounded: (bound) => metrics.watchBounded(bound),
  });
  metrics.readLiveWatches(() => watches.countLive());
  metrics.readDeliveryQueue(() => watches.deliveryQueue());
  const reports = reportsServices(config, platform, freshResolver, {
    watches,
    log,
    // The auto-watch keeps the watches' time: tests move both past a day or a month.
    clock: options.watchClock ?? platform.clock,
    autoWatch: options.autoWatch,
  });
  const captcha: CaptchaRule | undefined = config.captcha && {
    verifier: createCaptchaVerifier({
      provider: config.captcha.provider,
      secret: config.captcha.secret,
      ...(config.captcha.verifyUrl ? { verifyUrl: config.captcha.verifyUrl } : {}),
    }),
    siteKey: config.captcha.siteKey,
    freeChecks: config.captcha.freeChecks,
    failOpenPerDay: config.captcha.failOpenPerDay,
  };
  return {
    zones,
    resolver,
    verdicts,
    dnsbl,
    store: platform.store,
    log,
    clock: platform.clock,
    randomBytes: platform.randomBytes,
    digest: platform.digest,
    asksNameServers: platform.dns.asksNameServers,
    metrics,
    hashCaller: createCallerHash(platform.randomBytes, platform.digest),
    cards: createCardCache({
      maxBytes: platform.cardCacheBytes,
      render: observeCardRender(platform.renderCard, metrics),
    }),
    pageAssets: await preparePageAssets(platform.pageAssets),
    ...(captcha ? { captcha } : {}),
    watches,
    reports,
    /** Whether a watch may have `email`: the check page's watch form offers it only then. */
    sendsWatchEmail: platform.mailer !== undefined && config.watch.alertFrom !== undefined,
    callerIds,
    probes,
    isConfigured: () => verdicts.readiness().configured,
    readiness: () => verdicts.readiness(),
    /** What the check page tells an operator while no list is proven: the setting, the demo. */
    resolverAdvice: { setting: platform.dns.setting, ...(offlineDemo ? { offlineDemo } : {}) },
    listHealth: () => verdicts.lists(),
    confirmResolver: () => verdicts.confirm(),
    verdictEpoch: () => verdicts.epoch,
    localMonitor,
    refreshVerdicts,
    flushVerdicts,
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;

/**
 * Each name a list is asked under (its zone, or with a key in front: a Spamhaus DQS name, a keyed
 * list's query), to the zone it reports as.
 */
export function queryNames(zones: readonly DnsblZone[], keys: ListKeys): Map<string, string> {
  return new Map(
    zones.flatMap((zone): [string, string][] => [
      [zone.zone, zone.zone],
      [queryZone(zone, keys), zone.zone],
      // A list's IPv6 side under a zone of its own (SEM-IPV6BL) has traffic of its own.
      ...(zone.ipv6?.zone
        ? ([
            [zone.ipv6.zone, zone.ipv6.zone],
            [queryZone(zone, keys, 'ipv6'), zone.ipv6.zone],
          ] satisfies [string, string][])
        : []),
    ]),
  );
}

/** One line per self-test run: how many list sides passed, which were disabled. */
export function logRun(
  log: Logger,
  verdicts: readonly {
    zone: string;
    side: ListSide;
    state: 'passed' | 'failed' | 'inconclusive';
  }[],
): void {
  log('info', 'self-test', {
    passed: verdicts.filter((verdict) => verdict.state === 'passed').length,
    disabled: verdicts
      .filter((verdict) => verdict.state === 'failed')
      .map((verdict) => (verdict.side === 'ipv6' ? `${verdict.zone} (IPv6)` : verdict.zone)),
    inconclusive: verdicts.filter((verdict) => verdict.state === 'inconclusive').length,
  });
}

/**
 * The operator's first warning: at start when nothing can be proven, and whenever readiness
 * changes. At `error` level, so `LOG_LEVEL=error` still shows it. A newcomer on a machine
 * without outside DNS is told how to try the service anyway (`offlineDemo`).
 */
export function logReadiness(
  log: Logger,
  readiness: { configured: boolean; reason?: string },
  endpoints: readonly string[],
  { atStart = false, offlineDemo }: { atStart?: boolean; offlineDemo?: string | undefined } = {},
): void {
  if (readiness.configured) {
    if (!atStart) log('info', 'configured: a blocklist has proven it answers honestly again');
    return;
  }
  log(
    'error',
    'not configured: no blocklist can be proven to answer honestly; the list checks answer 503 not_configured, the mail check runs without them',
    {
      reason: readiness.reason,
      dnsServers: endpoints.length > 0 ? endpoints : 'system',
      ...(offlineDemo
        ? {
            tryOffline: `${offlineDemo} serves the API over a bundled DNS world, offline (README.md, "Run it")`,
          }
        : {}),
    },
  );
}
