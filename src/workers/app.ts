import { createApp } from '../app.js';
import { ApiError, errorBody } from '../http/index.js';
import { type Services, createServices } from '../services.js';
import { readWorkerConfig } from './config.js';
import { type WorkerBindings, createWorkersPlatform } from './platform.js';

/**
 * The API on Workers: the same app as on Node (src/app.ts) over the Workers platform, built once
 * per isolate and configuration. The caller is CF-Connecting-IP, which Cloudflare sets on every
 * request to a Worker (a client's own is replaced): TRUST_PROXY and FORWARDED_HEADERS are not
 * read here (they are Node's variables), so no forwarded header names a caller or an origin.
 */

export type WorkerEnv = WorkerBindings & Record<string, unknown>;

export interface EdgeApp {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response>;
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
  };
}

/**
 * A configuration that does not validate answers every request with this 503, naming the bad
 * variables (never their values): on Workers there is no process to stop.
 */
export function misconfigured(error: unknown): Response {
  const body = errorBody(new ApiError('not_configured', (error as Error).message));
  return Response.json(body, { status: 503 });
}
