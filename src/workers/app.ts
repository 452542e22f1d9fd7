import { createApp } from '../app.js';
import { ApiError, errorBody } from '../http/index.js';
import { acceptedRequestId, newRequestId, type Readiness } from '../operations/index.js';
import { webCrypto } from '../platform.js';
import { type Services, createServices } from '../services.js';
import { readWorkerConfig } from './config.js';
import { type WorkerBindings, createWorkersPlatform } from './platform.js';
import { type RoutedMessage, takeRoutedMail } from './reports/index.js';

/**
 * The API on Workers: the same app as on Node (src/app.ts) over the Workers platform, built once
 * per isolate and configuration. The caller is CF-Connecting-IP, which Cloudflare sets on every
 * request to a Worker (a client's own is replaced): TRUST_PROXY and FORWARDED_HEADERS are not
 * read here (they are Node's variables), so no forwarded header names a caller or an origin.
 */

export type WorkerEnv = WorkerBindings & Record<string, unknown>;

/** The runner's tick options: the claims the watch clock keeps (watch-clock-object.ts). */
export type TickOptions = NonNullable<Parameters<Services['watches']['runner']['tick']>[0]>;
export type CheckClaims = NonNullable<TickOptions['orphaned']>;

export interface EdgeApp {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response>;
  /**
   * One run of the watch runner (the watch clock's alarm, the Cron Trigger), on the monitor's
   * current view as a request has it: the isolate of an alarm may serve no request, and its
   * replica, read once while the first self-test ran, would otherwise say so forever.
   */
  tickWatches(options?: TickOptions): ReturnType<Services['watches']['runner']['tick']>;
  /** A message Email Routing hands the email() handler, taken in as the reports' (email.ts). */
  takeMail(message: RoutedMessage): Promise<void>;
  services: Services;
  /** The app itself, for its documented routes (the tests check answers against them). */
  app: ReturnType<typeof createApp>;
}

export interface EdgeAppOptions {
  /** Put before every store key (tests: stores that share nothing). */
  storePrefix?: string;
  /** The app's clock (tests move it). */
  clock?: () => Date;
  /** Where log lines go instead of the console (tests read them). */
  logSink?: (line: string) => void;
}

export async function createEdgeApp(
  env: WorkerEnv,
  options: EdgeAppOptions = {},
): Promise<EdgeApp> {
  const config = readWorkerConfig(env);
  const platform = createWorkersPlatform(config, env, options);
  const services = await createServices(config, platform);
  const app = createApp({
    ...services,
    config,
    peerAddress: (c) => c.req.header('cf-connecting-ip') ?? '',
  });
  return {
    services,
    app,
    async fetch(request, env, ctx) {
      // The monitor's view, read again when a second old; then what this request's checks saw
      // goes back to it once the response is out.
      await services.refreshVerdicts();
      const response = await app.fetch(request, env, ctx);
      ctx.waitUntil(services.flushVerdicts());
      return response;
    },
    takeMail: (message) =>
      takeRoutedMail(message, services.reports.intake, {
        maxBytes: services.reports.maxBytes,
        log: services.log,
      }),
    async tickWatches(options) {
      await services.refreshVerdicts();
      try {
        // The reports' auto-watch rides the watch clock: its runs make and renew watches.
        await services.reports.autoWatch.runner.tick().catch((error: unknown) => {
          services.log('error', 'auto_watch tick failed', { error: String(error) });
        });
        return await services.watches.runner.tick(options);
      } finally {
        await services.flushVerdicts();
      }
    },
  };
}

/**
 * A configuration that does not validate answers every request with this 503, naming the bad
 * variables (never their values): on Workers there is no process to stop. The isolate still
 * serves, so /healthz answers 200, and /readyz says why it is not ready (docs/operations.md).
 */
export function misconfigured(error: unknown, request: Request): Response {
  const reason = (error as Error).message;
  const headers = {
    'Cache-Control': 'no-store',
    'X-Request-Id':
      acceptedRequestId(request.headers.get('x-request-id') ?? undefined) ??
      newRequestId(webCrypto.randomBytes),
  };
  switch (new URL(request.url).pathname) {
    case '/healthz':
      return Response.json({ status: 'ok' }, { headers });
    case '/readyz':
      return Response.json(
        { ready: false, configured: false, store: 'unknown', reason } satisfies Readiness,
        { status: 503, headers },
      );
    default:
      return Response.json(errorBody(new ApiError('not_configured', reason)), {
        status: 503,
        headers,
      });
  }
}
