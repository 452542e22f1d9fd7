import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import {
  type AppEnv,
  callerAddress,
  type ForwardedFamily,
  quotaSubject,
  type TrustProxy,
} from '../http/index.js';
import type { Logger } from '../lib/index.js';
import type { CallerHash } from './caller-hash.js';
import type { Metrics } from './metrics.js';
import { acceptedRequestId, newRequestId } from './request-id.js';

/**
 * The app's first middleware: it gives the request its id and its caller (the address TRUST_PROXY
 * names, and the subject its quota is counted under), and once the answer is made writes the one
 * log line of the request and counts a tool's check by how it was answered. The line holds the
 * time, level, request id, method, route pattern (never the raw path, which holds tokens and
 * targets), status, duration and the caller hashed, plus the error code of an error answer; never
 * a body, a header or a query string (docs/operations.md).
 */

export interface RequestLogDeps {
  log: Logger;
  /** Whether request lines are written at all (LOG_LEVEL info or debug): else nothing is hashed. */
  logsRequests: boolean;
  peerAddress: (c: Context) => string;
  trustProxy: TrustProxy;
  /** Which forwarded-header family TRUST_PROXY reads (FORWARDED_HEADERS). */
  forwardedHeaders: ForwardedFamily;
  randomBytes: (length: number) => Uint8Array;
  hashCaller: CallerHash;
  metrics: Metrics;
}

export function requestLog(deps: RequestLogDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId =
      acceptedRequestId(c.req.header('x-request-id')) ?? newRequestId(deps.randomBytes);
    c.set('requestId', requestId);
    const address = callerAddress(
      deps.peerAddress(c),
      (name) => c.req.header(name),
      deps.trustProxy,
      deps.forwardedHeaders,
    );
    c.set('caller', { address, subject: quotaSubject(address) });
    // Hashed while the route runs, so the line waits for nothing.
    const caller = deps.logsRequests ? deps.hashCaller(address) : undefined;
    await next();
    const code = c.get('errorCode');
    const tool = c.get('tool');
    // A check the client gave up on before its body arrived was answered nothing: not counted.
    const answer = code ?? c.get('checkAnswer');
    if (tool !== undefined && answer !== undefined) deps.metrics.checkAnswered(tool, answer);
    if (caller === undefined) return;
    deps.log('info', 'request', {
      requestId,
      method: c.req.method,
      route: routePath(c),
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      caller: await caller,
      ...(code ? { code } : {}),
    });
  };
}
