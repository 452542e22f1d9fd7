import type { Context, Hono } from 'hono';
import { ApiError, type AppEnv, answerMethodNotAllowed } from '../http/index.js';
import { type MetricsAccess, metricsReader } from './metrics-access.js';
import type { Readiness } from './readiness.js';

/**
 * The operator's routes, at the root path whatever BASE_PATH is, outside every quota and captcha,
 * and outside the OpenAPI document, which describes the API under BASE_PATH (docs/operations.md):
 *
 * - GET /healthz: 200 while the process serves (liveness);
 * - GET /readyz: 200 when the lists are trusted and the store answers, else 503 and why (readiness);
 * - GET /metrics: the Prometheus text format, where the runtime serves metrics (Node), to the
 *   callers METRICS_ALLOW and METRICS_TOKEN allow; the ordinary 404 to anyone else.
 */

export interface MetricsEndpoint extends MetricsAccess {
  /** The exposition text, of every process of the service (src/node/prometheus.ts). */
  scrape(): Promise<{ contentType: string; text: string }>;
}

export interface OperatorDeps {
  readiness: () => Promise<Readiness>;
  /** Absent where no metrics are served (Workers): /metrics is then an unknown route. */
  metrics?: MetricsEndpoint;
  peerAddress: (c: Context) => string;
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
}

/** Nothing here may be kept by a cache: each answer is the state of now. */
const noStore = { 'Cache-Control': 'no-store' };

export function addOperatorRoutes(app: Hono<AppEnv>, deps: OperatorDeps): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, noStore));
  app.get('/readyz', async (c) => {
    const readiness = await deps.readiness();
    // RFC 9110 §15.6.4: the store and the self-test are usually back within seconds.
    return readiness.ready
      ? c.json(readiness, 200, noStore)
      : c.json(readiness, 503, { ...noStore, 'Retry-After': '5' });
  });
  answerMethodNotAllowed(app, [
    { method: 'get', path: '/healthz' },
    { method: 'get', path: '/readyz' },
  ]);

  const endpoint = deps.metrics;
  if (!endpoint) return;
  const mayRead = metricsReader(endpoint, deps.peerAddress, deps.digest);
  app.all('/metrics', async (c) => {
    // Whoever may not read it learns nothing, not even which methods the path answers.
    if (!(await mayRead(c))) return c.notFound();
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD')
      throw new ApiError('method_not_allowed', 'this path answers GET, HEAD only', {
        Allow: 'GET, HEAD',
      });
    const { contentType, text } = await endpoint.scrape();
    return c.body(text, 200, { 'Content-Type': contentType, ...noStore });
  });
}
