import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import {
  type AppEnv,
  answerMethodNotAllowed,
  cacheableHeaders,
  type ErrorCode,
  errorResponses,
  type Guard,
  jsonBodyErrors,
  jsonBodyGate,
  jsonResponse,
  notModifiedResponse,
  type QuotaStatus,
  readJsonBody,
  registeredRoutes,
  serveRoute,
  storeErrors,
} from '../../http/index.js';
import { utf8 } from '../../lib/index.js';
import { type CheckReadiness, runConfirmed } from '../../reputation/index.js';
import { bearerToken } from './bearer.js';
import { cacheable, callerOwn, callerOwnHeaders } from './cacheable.js';
import { chargedCheck, freshCheckErrors, type Refusal, requireReady } from './fresh-check.js';
import type { TargetDeps } from './read-target.js';
import { resultCacheKey } from './result-keys.js';
import { type ResultStore, spliceJson } from './results.js';
import { addArtefactRoutes, type ArtefactDeps } from './artefact-routes.js';
import { resultArtefacts, resultNotFound } from './result-artefacts.js';
import { captchaHeader, captchaSecurity, quotaStatusSchema } from './schemas.js';
import { operationStem, type SharingTool, type ToolDefinition } from './tool.js';

/**
 * The routes of a tool whose results are snapshots (ip, domain, pool): its status, its checks'
 * POST pipeline (parse body and aliases -> validate -> read the quota and the result cache -> a
 * cached result (after the captcha, if due) or: quota left? -> captcha -> take a unit -> check ->
 * store under a new token -> respond with the quota fields), and GET by token with the share
 * routes. A tool brings only its body schemas, how to read a request, and the check itself.
 */

export interface PreparedCheck {
  /** The normalised request: the same key within RESULT_TTL_S answers from the result cache. */
  requestKey: string;
  /**
   * Made on every request, cached or not: write it as a method. tsx (esbuild's keepNames) wraps
   * an arrow function assigned to `run` in a defineProperty call, measured at 2 % of a cached POST.
   */
  run(): Promise<{ ok: true; result: object } | Refusal>;
  /**
   * Whether a result may answer the same request again within RESULT_TTL_S: false for one the
   * service's own shortage degraded (the mail tool's probes not made for want of a slot).
   */
  cacheable?(result: object): boolean;
}

/** Who sent a check: its caller (src/http/caller.ts) and the bearer token it sent, if any. */
export interface CheckSender {
  address: string;
  subject: string;
  /** `Authorization: Bearer <token>` (RFC 6750 §2.1): the mail tool reads OPERATOR_TOKEN in it. */
  bearer: string | undefined;
}

export interface CheckRoute<B extends z.ZodObject> {
  path: string;
  /** The OpenAPI operationId, e.g. `checkIp`: what client generators name the method. */
  operationId: string;
  summary: string;
  /** What the check asks and answers, beyond its summary: the document's description. */
  description: string;
  body: B;
  result: z.ZodType;
  /** Reads the validated body; throws ApiError(400) on a bad target. */
  prepare(body: z.infer<B>, sender: CheckSender): PreparedCheck | Promise<PreparedCheck>;
  /**
   * The codes its check refuses with beyond a DNS check's (`freshCheckErrors`), as the group the
   * check exports: a check that probes more than the DNS (the mail tool's SMTP) names its own.
   */
  errors?: readonly ErrorCode[];
}

/** Fields a tool's status adds to the quota status: their schemas, and what they read now. */
export interface StatusExtra {
  fields: z.ZodRawShape;
  /** The sentence the status's description adds about them. */
  description: string;
  read(): Record<string, unknown>;
}

export interface SnapshotDeps extends ArtefactDeps, CheckReadiness, TargetDeps {
  results: ResultStore;
  guard: Guard;
  /** Part of the result cache key: results made before a lie was caught or a list came back are not served. */
  verdictEpoch?: () => number;
}

/**
 * The operationIds of a snapshot tool's routes, by what each route is (`getIpStatus`, ...): the
 * routes are registered under them, and the tool index finds them by them.
 */
export function snapshotOperations(title: string) {
  const stem = operationStem(title);
  return {
    status: `get${stem}Status`,
    result: `get${stem}Result`,
    sharePage: `get${stem}SharePage`,
    badge: `get${stem}Badge`,
    card: `get${stem}Card`,
  };
}

export function snapshotTool(
  app: OpenAPIHono<AppEnv>,
  tool: SharingTool & Pick<ToolDefinition, 'needsLists'>,
  deps: SnapshotDeps,
) {
  // Only the check routes name their tool: their errors carry the quota status (docs/DESIGN.md), a
  // 405 to POST /status or an error on GET by token does not.
  const namesTool: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set('tool', tool.name);
    await next();
  };
  const tags = [tool.title];
  const operations = snapshotOperations(tool.title);
  const subjectOf = (c: Context<AppEnv>) => c.get('caller').subject;

  /**
   * GET /status: the caller's quota, and what else the tool says of its state (`extra`: the mail
   * tool's SMTP probe), documented as `<Title>Status`.
   */
  function status(extra?: StatusExtra): void {
    const operationId = operations.status;
    const schema = extra
      ? quotaStatusSchema.extend(extra.fields).openapi(`${operationStem(tool.title)}Status`)
      : quotaStatusSchema;
    serveRoute(
      app,
      createRoute({
        method: 'get',
        path: '/status',
        operationId,
        tags,
        summary: 'Quota status of the caller',
        description: [
          'The caller’s checks left today (per UTC day, counted per address, an IPv6 caller per /64), whether the next check needs a captcha and its site key, and whether the service can check now: `configured`, with a `reason` for the operator when it cannot. Reading it costs no quota.',
          ...(extra ? [extra.description] : []),
        ].join(' '),
        security: [],
        responses: {
          200: {
            description: 'Quota status',
            headers: callerOwnHeaders,
            content: { 'application/json': { schema } },
          },
          ...errorResponses(operationId, storeErrors),
        },
      }),
      async (c) =>
        c.json(
          { ...(await deps.guard.status(tool.name, subjectOf(c))), ...extra?.read() },
          200,
          callerOwn,
        ),
    );
  }

  function check<B extends z.ZodObject>(route: CheckRoute<B>): void {
    // The body is read and validated once, by readJsonBody, against the schema documented here.
    serveRoute(
      app,
      createRoute({
        method: 'post',
        path: route.path,
        operationId: route.operationId,
        tags,
        summary: route.summary,
        description: `${route.description} A fresh check takes one unit of the caller’s daily quota; the same request again within RESULT_TTL_S answers the stored result with \`from_cache: true\` and takes none. The answer carries a \`token\` for the result, its badge, card and share page.`,
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
          ...errorResponses(
            route.operationId,
            [...jsonBodyErrors, ...freshCheckErrors, ...(route.errors ?? [])],
            {
              withQuota: true,
            },
          ),
        },
      }),
      namesTool,
      jsonBodyGate,
      async (c) => {
        const body = await readJsonBody(c, route.body);
        const { address, subject } = c.get('caller');
        const bearer = bearerToken(c.req.header('authorization'));
        const prepared = await route.prepare(body, { address, subject, bearer });
        // A tool that needs no list runs while none is proven (its check says what it left out).
        const withoutLists = tool.needsLists === false;
        if (!withoutLists) requireReady(deps);
        const captchaToken = captchaTokenOf(c, body);
        // After a lie is caught or a list comes back the key changes: nothing cached before answers.
        const epoch = deps.verdictEpoch?.() ?? 0;
        const requestKey = resultCacheKey(prepared.requestKey, epoch);
        // One reading of the caller's count and one of the result cache, side by side: with Redis
        // they share a round trip.
        const [reading, cached] = await Promise.all([
          deps.guard.read(tool.name, subject),
          deps.results.cached(tool.name, requestKey),
        ]);
        if (cached) {
          await reading.requireCaptcha(captchaToken, address);
          c.set('checkAnswer', 'cached');
          return jsonResponse(c, respond(cached.json, cached.token, true, reading.status));
        }

        const { outcome, quota } = await chargedCheck({ reading, captchaToken, address }, () =>
          runConfirmed(deps, () => prepared.run(), { withoutLists }),
        );
        const resultJson = JSON.stringify(outcome.result);
        // A result over the bound costs its unit as a bad target does: the DNS work was done.
        const token = await deps.results.save(tool.name, resultJson);
        if (prepared.cacheable?.(outcome.result) ?? true) {
          await deps.results.remember(tool.name, requestKey, token, resultJson);
        }
        c.set('checkAnswer', 'fresh');
        return jsonResponse(c, respond(resultJson, token, false, quota));
      },
    );
  }

  /**
   * The share routes and GET by token, added last: after every literal path of the tool
   * (`/status`, `/discover`, ...) that `/{token}` would otherwise read as a token. Those paths
   * answer their own methods only, so any other is a 405 (RFC 9110 §15.5.6), put before the
   * token routes.
   */
  function tokenRoutes(stored: z.ZodType): void {
    answerMethodNotAllowed(app, registeredRoutes(app));
    addArtefactRoutes(app, resultArtefacts(tool, operations, deps.results), deps);
    const operationId = operations.result;
    serveRoute(
      app,
      createRoute({
        method: 'get',
        path: '/{token}',
        operationId,
        tags,
        summary: 'A stored result by its token',
        description:
          'The result a check stored under this token, as the check answered it, without the quota fields. It never changes: the answer has an ETag and may be cached until the token expires (TOKEN_TTL_DAYS); an unknown or expired token is a 404.',
        security: [],
        request: {
          // Any string is a token to look up: an unknown one is a 404, not a 400.
          params: z.object({ token: z.string().openapi({ param: { name: 'token', in: 'path' } }) }),
        },
        responses: {
          200: {
            description: 'The stored result; it never changes',
            headers: cacheableHeaders,
            content: { 'application/json': { schema: stored } },
          },
          304: notModifiedResponse,
          ...errorResponses(operationId, ['not_found', ...storeErrors]),
        },
      }),
      async (c) => {
        const token = c.req.param('token')!;
        const json = await deps.results.loadJson(tool.name, token);
        if (json === undefined) throw resultNotFound();
        return cacheable(c, utf8.encode(spliceJson({ token }, json, {})), 'application/json', {
          digest: deps.digest,
        });
      },
    );
  }

  return { status, check, tokenRoutes };
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

/** docs/DESIGN.md: body `smart-token`, `captchaToken`, `smart_token`, then header X-Captcha-Token; first non-empty wins. */
export function captchaTokenOf(c: Context, body: Record<string, unknown>): string | undefined {
  const candidates = [
    body['smart-token'],
    body.captchaToken,
    body.smart_token,
    c.req.header('x-captcha-token'),
  ];
  return candidates.find((value): value is string => typeof value === 'string' && value !== '');
}
