import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import {
  ApiError,
  type AppEnv,
  type Guard,
  invalidRequest,
  jsonBodyGate,
  jsonResponse,
  type QuotaStatus,
  readJsonBody,
} from '../http/index.js';
import type { ResolverConfirmation } from '../reputation/index.js';
import type { ShareSummary } from '../share/index.js';
import { spliceJson } from './results.js';
import { type ShareDeps, addShareRoutes } from './share-routes.js';
import {
  captchaHeader,
  captchaSecurity,
  checkErrorResponses,
  errorResponses,
  quotaStatusSchema,
} from './schemas.js';

/**
 * What every tool has in common: its status endpoint, the POST pipeline (parse body and aliases
 * -> validate -> read the quota and the result cache -> a cached result (after the captcha, if
 * due) or: quota left? -> captcha -> take a unit -> check -> store under a new token -> respond
 * with the quota fields) and GET by token. A tool brings only its body schema, how to read a
 * request, and the check itself.
 */

export type ToolName = 'ip' | 'domain' | 'pool';

export type CheckOutcome =
  | { ok: true; result: object }
  | { ok: false; error: 'invalid_target' | 'invalid_request' | 'dns_unavailable'; reason: string };

export interface PreparedCheck {
  /** The normalised request: the same key within RESULT_TTL_S answers from the result cache. */
  requestKey: string;
  /**
   * Made on every request, cached or not: write it as a method. tsx (esbuild's keepNames) wraps
   * an arrow function assigned to `run` in a defineProperty call, measured at 2 % of a cached POST.
   */
  run(): Promise<CheckOutcome>;
}

/** The body fields a captcha token may come in, besides the X-Captcha-Token header. */
export const captchaFields = {
  'smart-token': z.string().max(4096).optional().openapi({ description: 'Captcha token' }),
  captchaToken: z.string().max(4096).optional().openapi({ description: 'Captcha token (alias)' }),
  smart_token: z.string().max(4096).optional().openapi({ description: 'Captcha token (alias)' }),
};

export interface CheckRoute<B extends z.ZodObject> {
  path: string;
  /** The OpenAPI operationId, e.g. `checkIp`: what client generators name the method. */
  operationId: string;
  summary: string;
  body: B;
  result: z.ZodType;
  /** Reads the validated body; throws ApiError(400) on a bad target. */
  prepare(body: z.infer<B>): PreparedCheck | Promise<PreparedCheck>;
}

export interface ToolDeps extends ShareDeps {
  guard: Guard;
  isConfigured: () => boolean;
  notConfiguredReason?: () => string | undefined;
  /** Started with each fresh check; a resolver caught lying turns the check into a 503. */
  confirmResolver?: () => ResolverConfirmation;
  /** Part of the result cache key: results made before a lie was caught or a list came back are not served. */
  verdictEpoch?: () => number;
}

/**
 * How long a check waits, once done, for the confirmation started beside it: it asks one list's
 * test entry, one round trip like the check's own queries, so it is normally in first.
 */
const confirmationGraceMs = 250;

export interface ToolSpec {
  name: ToolName;
  /** `IP`, `Domain`, `Pool`: the OpenAPI tag and the stem of operationIds (`getIpResult`). */
  title: string;
  /** What GET by token returns beside `token` (documented fields; more may follow). */
  stored: z.ZodType;
  /** Reads a stored result as what its badge, card and share page show. */
  summarise: (result: Record<string, unknown>) => ShareSummary;
}

export function createTool(spec: ToolSpec, deps: ToolDeps) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalidRequest(result.error);
    },
  });
  // Only the check routes name their tool: their errors carry the quota status (DESIGN.md), a
  // 405 to POST /status or an error on GET by token does not.
  const namesTool: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set('tool', spec.name);
    await next();
  };
  const tag = spec.title;
  const operationStem = spec.title.charAt(0) + spec.title.slice(1).toLowerCase();
  const notConfigured = () =>
    new ApiError(
      'not_configured',
      deps.notConfiguredReason?.() ?? 'the service is not ready: its DNS resolver does not answer',
    );
  const subjectOf = (c: Context<AppEnv>) => c.get('caller').subject;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/status',
      operationId: `get${operationStem}Status`,
      tags: [tag],
      summary: 'Quota status of the caller',
      responses: {
        200: {
          description: 'Quota status',
          content: { 'application/json': { schema: quotaStatusSchema } },
        },
        503: errorResponses[503],
      },
    }),
    async (c) => c.json(await deps.guard.status(spec.name, subjectOf(c)), 200),
  );

  const checkPaths: string[] = [];

  function addCheck<B extends z.ZodObject>(route: CheckRoute<B>): void {
    checkPaths.push(route.path);
    // Documented here, served below: the body is read and validated once by readJsonBody instead
    // of by the validators app.openapi() would generate from the same schema.
    app.openAPIRegistry.registerPath(
      createRoute({
        method: 'post',
        path: route.path,
        operationId: route.operationId,
        tags: [tag],
        summary: route.summary,
        security: captchaSecurity,
        request: {
          headers: captchaHeader,
          body: { required: true, content: { 'application/json': { schema: route.body } } },
        },
        responses: {
          200: {
            description: 'Check result',
            content: { 'application/json': { schema: route.result } },
          },
          ...checkErrorResponses,
        },
      }),
    );
    app.post(route.path, namesTool, jsonBodyGate, async (c) => {
      const body = await readJsonBody(c, route.body);
      const prepared = await route.prepare(body);
      if (!deps.isConfigured()) throw notConfigured();
      const { address, subject } = c.get('caller');
      const captchaToken = captchaTokenOf(c, body);
      // After a lie is caught or a list comes back the key changes: nothing cached before answers.
      const epoch = deps.verdictEpoch?.() ?? 0;
      const requestKey =
        epoch === 0 ? prepared.requestKey : `epoch ${epoch} ${prepared.requestKey}`;
      // One reading of the caller's count and one of the result cache, side by side: with Redis
      // they share a round trip.
      const [reading, cached] = await Promise.all([
        deps.guard.read(spec.name, subject),
        deps.results.cached(spec.name, requestKey),
      ]);
      if (cached) {
        await reading.requireCaptcha(captchaToken, address);
        return jsonResponse(c, respond(cached.json, cached.token, true, reading.status));
      }

      // The quota before the captcha: nothing left is a 429 without a call to the provider.
      reading.requireUnitLeft();
      await reading.requireCaptcha(captchaToken, address);
      const quota = await reading.consume();
      const confirmation = deps.confirmResolver?.();
      const outcome = await prepared.run();
      if ((await confirmation?.settle(confirmationGraceMs)) === 'lying') {
        // The resolver answered a documented test entry falsely during this check: none of its
        // answers can be stored or shown, and the caller is not charged for our resolver's fault.
        await reading.refund();
        throw notConfigured();
      }
      if (!outcome.ok) {
        // A failure of ours (DNS) gives the unit back; a bad target found by DNS costs it.
        if (outcome.error === 'dns_unavailable') await reading.refund();
        throw new ApiError(outcome.error, outcome.reason);
      }
      const resultJson = JSON.stringify(outcome.result);
      // A result over the bound costs its unit as a bad target does: the DNS work was done.
      const token = await deps.results.save(spec.name, resultJson);
      await deps.results.remember(spec.name, requestKey, token, resultJson);
      return jsonResponse(c, respond(resultJson, token, false, quota));
    });
  }

  /**
   * The share routes and GET by token, added last: after every literal path of the tool
   * (`/status`, ...) that `/{token}` would otherwise shadow.
   */
  function addTokenRoutes(): void {
    // GET /{token} would read a check path (`/discover`) as a token and answer 404: these paths
    // answer POST only, so any other method is a 405 (RFC 9110 §15.5.6).
    for (const path of checkPaths.filter((path) => path !== '/')) {
      app.all(path, () => {
        throw new ApiError('method_not_allowed', 'this path answers POST only', { Allow: 'POST' });
      });
    }
    addShareRoutes(app, { tool: spec.name, operationStem }, deps, spec.summarise);
    // Documented, then served without the param validator app.openapi() would add: any string is
    // a token to look up, and an unknown one is a 404.
    app.openAPIRegistry.registerPath(
      createRoute({
        method: 'get',
        path: '/{token}',
        operationId: `get${operationStem}Result`,
        tags: [tag],
        summary: 'A stored result by its token',
        request: {
          params: z.object({ token: z.string().openapi({ param: { name: 'token', in: 'path' } }) }),
        },
        responses: {
          200: {
            description: 'The stored result',
            content: { 'application/json': { schema: spec.stored } },
          },
          404: errorResponses[404],
          503: errorResponses[503],
        },
      }),
    );
    app.get('/:token', async (c) => {
      const token = c.req.param('token');
      const stored = await deps.results.loadJson(spec.name, token);
      if (!stored)
        throw new ApiError('not_found', 'no result under this token (unknown or expired)');
      return jsonResponse(c, spliceJson({ token }, stored, {}));
    });
  }

  return { app, addCheck, addTokenRoutes };
}

/** A POST's answer: the result, its token, whether it came from the cache, the quota status. */
function respond(
  resultJson: string,
  token: string,
  fromCache: boolean,
  quota: QuotaStatus,
): string {
  return spliceJson({}, resultJson, { token, from_cache: fromCache, ...quota });
}

/** DESIGN.md: body `smart-token`, `captchaToken`, `smart_token`, then header X-Captcha-Token; first non-empty wins. */
function captchaTokenOf(c: Context, body: Record<string, unknown>): string | undefined {
  const candidates = [
    body['smart-token'],
    body.captchaToken,
    body.smart_token,
    c.req.header('x-captcha-token'),
  ];
  return candidates.find((value): value is string => typeof value === 'string' && value !== '');
}
