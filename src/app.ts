import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import type { Config, ProxySettings } from './config/index.js';
import type { Resolver } from './dns/index.js';
import {
  answerMethodNotAllowed,
  ApiError,
  type AppEnv,
  type CaptchaRule,
  clientClosedRequest,
  corsMiddleware,
  createGuard,
  createPublicOrigin,
  errorBody,
  headContentLength,
  isClientAbort,
  methodsMatcher,
  registeredRoutes,
} from './http/index.js';
import type { Logger } from './lib/index.js';
import {
  addOperatorRoutes,
  type CallerHash,
  type CallerIds,
  createCallerHash,
  createReadiness,
  type Metrics,
  type MetricsEndpoint,
  noMetrics,
  requestLog,
} from './operations/index.js';
import { createSite, htmlNotFound, type PageAssets, type ResolverAdvice } from './pages/index.js';
import type {
  DnsblEngine,
  DnsblZone,
  ListHealth,
  MailProbes,
  ResolverConfirmation,
  ServiceReadiness,
} from './reputation/index.js';
import { type CardCache, russianMeanings } from './share/index.js';
import { type Store, StoreUnavailableError } from './store/index.js';
import { createResultStore, createToolsApi, type ReportsServices } from './tools/index.js';
import { maxIntervalS, type Watches } from './watch/index.js';

/** Everything the app needs from outside, passed in so tests build it over fixtures. */
export interface AppDeps {
  /** With the proxy settings on Node; on Workers without them, so no forwarded header counts. */
  config: Config & Partial<ProxySettings>;
  resolver: Resolver;
  store: Store;
  dnsbl: DnsblEngine;
  /** True while at least one blocklist is proven to answer honestly through the resolver. */
  isConfigured: () => boolean;
  /** Configured or not, and why not in plain words (every status `reason`, GET /lists). */
  readiness?: () => ServiceReadiness;
  /** What the check page tells the operator while no list is proven (the platform's setting). */
  resolverAdvice?: ResolverAdvice;
  /** The zone list asked, for the lists page (what each list lists, its policy and links). */
  zones?: readonly DnsblZone[];
  /** Every configured list's health, for GET /lists. */
  listHealth?: () => ListHealth[];
  /** Confirms the resolver alongside each check (a documented test entry, past every cache). */
  confirmResolver?: () => ResolverConfirmation;
  /** Grows when a lie is caught or a list comes back: results cached before are not served. */
  verdictEpoch?: () => number;
  captcha?: CaptchaRule;
  clock: () => Date;
  log: Logger;
  /** Rendered PNG cards, bounded by bytes. */
  cards: CardCache;
  /** Random bytes for tokens, SHA-256 for ETags: the platform's (src/platform.ts). */
  randomBytes: (length: number) => Uint8Array;
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
  /** Whether pool discovery may ask a pool zone's own name servers (not over DoH). */
  asksNameServers: boolean;
  /** The socket peer's address (the runtime knows how to read it). */
  peerAddress: (c: Context) => string;
  /** The pages' script and stylesheet. */
  pageAssets: PageAssets;
  /** The watches' face (src/watch/watches.ts), built by createServices. */
  watches: Watches;
  /** The reports tool's store, inboxes and intake (docs/reports.md), built by createServices. */
  reports: ReportsServices;
  /**
   * The service can send watch alerts by e-mail: the check page's watch form then asks for an
   * address (docs/pages.md#check-page). False when absent.
   */
  sendsWatchEmail?: boolean;
  /** The mail check's probes, as the platform gives them (src/platform.ts). */
  probes: MailProbes;
  /** Response compression, where the runtime does not compress itself (Node: node/compression.ts). */
  compression?: MiddlewareHandler;
  /** What the core reports to the metrics (Node: prom-client); nothing without it. */
  metrics?: Metrics;
  /** Counts and times every request by route pattern (Node: @hono/prometheus). */
  httpMetrics?: MiddlewareHandler;
  /** GET /metrics, where the runtime serves it (Node); an unknown route without it. */
  metricsEndpoint?: MetricsEndpoint;
  /** The caller as the request log writes it; a keyed hash drawn here without it. */
  hashCaller?: CallerHash;
  /** The keyed ids quota counters are stored under (src/operations/caller-ids.ts); the subject without. */
  callerIds?: CallerIds;
}

export function createApp(deps: AppDeps) {
  const { config, log } = deps;
  const trustProxy = config.trustProxy ?? { mode: 'none' };
  const forwardedHeaders = config.forwardedHeaders ?? 'x-forwarded';
  // Not strict: `/ip/v1/` is `/ip/v1`, on every route and method
  // (docs/http-hardening.md#trailing-slashes-and-the-base-path), rather than a 404 or a redirect a
  // POST could not follow.
  const app = new OpenAPIHono<AppEnv>({ strict: false });
  const guard = createGuard({
    store: deps.store,
    clock: deps.clock,
    dailyLimit: config.dailyLimit,
    refundsPerDay: config.refundsPerDay,
    isConfigured: deps.isConfigured,
    notConfiguredReason: () => deps.readiness?.().reason,
    log,
    ...(deps.captcha ? { captcha: deps.captcha } : {}),
    ...(deps.callerIds ? { callerIds: deps.callerIds } : {}),
  });
  const results = createResultStore(
    deps.store,
    { tokenMs: config.tokenTtlMs, resultMs: config.resultTtlMs },
    deps.randomBytes,
  );

  app.use(
    '*',
    requestLog({
      log,
      logsRequests: config.logLevel === 'info' || config.logLevel === 'debug',
      peerAddress: deps.peerAddress,
      trustProxy,
      forwardedHeaders,
      randomBytes: deps.randomBytes,
      hashCaller: deps.hashCaller ?? createCallerHash(deps.randomBytes, deps.digest),
      metrics: deps.metrics ?? noMetrics,
    }),
  );
  if (deps.httpMetrics) app.use('*', deps.httpMetrics);
  app.use('*', headContentLength);
  if (deps.compression) app.use('*', deps.compression);
  // The methods of each path, read from the documented routes once they are all registered.
  let methodsOf: ((path: string) => string[]) | undefined;
  app.use(
    '*',
    corsMiddleware(config.corsOrigins, (path) => {
      methodsOf ??= methodsMatcher(registeredRoutes(app));
      return methodsOf(path);
    }),
  );

  const readinessOfLists = deps.readiness ?? (() => ({ configured: deps.isConfigured() }));
  addOperatorRoutes(app, {
    readiness: createReadiness(deps.store, readinessOfLists),
    ...(deps.metricsEndpoint ? { metrics: deps.metricsEndpoint } : {}),
    peerAddress: deps.peerAddress,
    digest: deps.digest,
  });

  const site = createSite({
    basePath: config.basePath,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    publicOrigin: createPublicOrigin({
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      trustProxy,
      forwardedHeaders,
      peerAddress: deps.peerAddress,
    }),
    assets: deps.pageAssets,
    ...(config.captcha ? { captchaProvider: config.captcha.provider } : {}),
    poolMaxIps: config.poolMaxIps,
    tokenTtlMs: config.tokenTtlMs,
    watch: {
      intervalS: config.watch.intervalS,
      minIntervalS: config.watch.minIntervalS,
      maxIntervalS,
      email: deps.sendsWatchEmail ?? false,
    },
  });

  const api = createToolsApi(
    {
      guard,
      results,
      isConfigured: deps.isConfigured,
      notConfiguredReason: () => deps.readiness?.().reason,
      ...(deps.confirmResolver ? { confirmResolver: deps.confirmResolver } : {}),
      ...(deps.verdictEpoch ? { verdictEpoch: deps.verdictEpoch } : {}),
      cards: deps.cards,
      digest: deps.digest,
      meanings: russianMeanings(deps.zones ?? []),
      resolver: deps.resolver,
      dnsbl: deps.dnsbl,
      deadlineMs: config.checkDeadlineMs,
      now: deps.clock,
      knownZones: config.dns.knownZones,
      site,
      store: deps.store,
      watches: deps.watches,
      reports: deps.reports,
      probes: deps.probes,
      ...(config.watch.operatorToken ? { operatorToken: config.watch.operatorToken } : {}),
      tokenTtlMs: config.tokenTtlMs,
      pool: {
        maxIps: config.poolMaxIps,
        discovery: {
          nameServerPort: config.poolNameServers.port,
          allowNonPublicNameServers: config.poolNameServers.allowNonPublic,
          askNameServers: deps.asksNameServers,
        },
      },
    },
    {
      basePath: config.basePath,
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      site,
      lists: deps.listHealth ?? (() => []),
      readiness: readinessOfLists,
      resolverAdvice: deps.resolverAdvice ?? { setting: 'DNS_SERVERS' },
      zones: deps.zones ?? [],
    },
  );
  // The base path: the check page for a browser (src/pages/routes.ts), which hands any other
  // client on to the JSON index of the tools.
  app.route(config.basePath || '/', api);
  answerMethodNotAllowed(app, registeredRoutes(app));

  app.notFound(
    async (c) =>
      (await htmlNotFound(c, site, 'route')) ??
      c.json(errorBody(new ApiError('not_found', 'no such route')), 404),
  );

  app.onError(async (error, c) => {
    // Nobody is left to answer: the request's log line says 499 (client-abort.ts).
    if (isClientAbort(error, c.req.raw)) return new Response(null, { status: clientClosedRequest });
    const apiError = await toApiError(error, c);
    c.set('errorCode', apiError.code);
    if (apiError.code === 'internal')
      log('error', 'unexpected error', {
        requestId: c.get('requestId'),
        route: routePath(c),
        error: String(error),
      });
    return c.json(errorBody(apiError), apiError.status, apiError.headers);
  });

  /** Errors on a tool's POST routes carry the caller's quota status, as successful POSTs do. */
  async function toApiError(error: Error, c: Context<AppEnv>): Promise<ApiError> {
    const base =
      error instanceof ApiError
        ? error
        : error instanceof HTTPException
          ? fromHttpException(error)
          : error instanceof StoreUnavailableError
            ? storeUnavailable
            : new ApiError('internal', 'internal error');
    const tool = c.get('tool');
    if (c.req.method !== 'POST' || tool === undefined || 'dailyLimit' in base.fields) return base;
    try {
      return base.with({ ...(await guard.status(tool, c.get('caller').subject)) });
    } catch {
      return base;
    }
  }

  return app;
}

/**
 * The store did not answer (Redis down, SQLite busy or full): a token read is this 503, never a 404
 * that would tell a caller the token is gone, and a quota is never judged without its counter.
 */
const storeUnavailable = new ApiError(
  'store_unavailable',
  'the service cannot reach its store right now; try again in a few seconds',
);

/** Errors Hono or a library raise themselves, in our error vocabulary; anything else is ours to fix. */
function fromHttpException(error: HTTPException): ApiError {
  switch (error.status) {
    case 400:
      return new ApiError('invalid_request', error.message || 'invalid request');
    case 413:
      return new ApiError('body_too_large', 'the request body is too large');
    case 415:
      return new ApiError(
        'unsupported_media_type',
        'the request body must be JSON (Content-Type: application/json)',
      );
    default:
      return new ApiError('internal', 'internal error');
  }
}
