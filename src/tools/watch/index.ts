import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  ApiError,
  type AppEnv,
  type ErrorCode,
  errorResponses,
  type Guard,
  jsonBodyGate,
  readJsonBody,
  serveRoute,
} from '../../http/index.js';
import type { Site } from '../../pages/index.js';
import { parseHostName, parseTarget } from '../../reputation/index.js';
import type { CardCache, MeaningTable } from '../../share/index.js';
import type { WatchFailure, Watches, WatchView } from '../../watch/index.js';
import {
  captchaHeader,
  captchaSecurity,
  captchaTokenOf,
  chargeFailedCheck,
  defineTool,
} from '../common/index.js';
import {
  bearerToken,
  holdsManageKey,
  manageKeyScheme,
  manageKeySecurity,
  requireManageKey,
  watchNotFound,
} from './manage-key.js';
import { watchPage } from './page.js';
import {
  createdWatchSchema,
  createWatchRequest,
  publicWatchSchema,
  testQueuedSchema,
  updatedWatchSchema,
  updateWatchRequest,
  watchIdParams,
} from './schemas.js';
import { summariseWatch } from './summary.js';
import { addWatchViews, liveJson } from './views.js';
import { addWatchWebhooks } from './webhooks.js';

/**
 * The watch (docs/watches.md): a target re-checked on a schedule, with a live badge, card and
 * share page and a signed webhook on every change. Not a snapshot tool: its routes are its own,
 * each one createRoute() definition served by serveRoute (docs/registry.md), over the engine's
 * face (`createWatches`, src/watch/watches.ts).
 */

export interface WatchToolDeps {
  watches: Watches;
  guard: Guard;
  site: Site;
  cards: CardCache;
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
  /** The zone list's meanings in Russian, for the artefacts in Russian (src/share/result-texts.ts). */
  meanings: MeaningTable;
  isConfigured: () => boolean;
  notConfiguredReason?: () => string | undefined;
}

const tags = ['Watch'];

const createErrors: ErrorCode[] = [
  'invalid_json',
  'invalid_target',
  'invalid_request',
  'invalid_webhook',
  'captcha_required',
  'captcha_failed',
  'body_too_large',
  'unsupported_media_type',
  'quota_exceeded',
  'watch_limit',
  'watch_capacity',
  'not_configured',
  'dns_unavailable',
  'store_unavailable',
];
const keyErrors: ErrorCode[] = [
  'manage_key_required',
  'manage_key_wrong',
  'not_found',
  'store_unavailable',
];
const bodyErrors: ErrorCode[] = [
  'invalid_json',
  'invalid_request',
  'body_too_large',
  'unsupported_media_type',
];

/** The engine's refusals as the API answers them: the codes are the same words. */
function refused(failure: WatchFailure): ApiError {
  const headers: Record<string, string> =
    failure.retryAfterS === undefined ? {} : { 'Retry-After': String(failure.retryAfterS) };
  return new ApiError(failure.error, failure.reason, headers);
}

/** The live badge and page of a watch, absolute from the public origin (docs/pages.md). */
export function watchLinksOf(site: Site, c: Context, id: string) {
  const root = `${site.publicOrigin(c).base}${site.basePath}/watch/v1/${encodeURIComponent(id)}`;
  return { badge_url: `${root}/badge.svg`, page_url: `${root}/share` };
}

export const watchTool = defineTool({
  name: 'watch',
  title: 'Watch',
  description:
    'A target re-checked on a schedule: a live badge, card and page, and a signed webhook on every listing and delisting',
  submit: 'check.submit',
  onCheckPage: false,
  summarise: summariseWatch,
  page: watchPage,
  serve(app: OpenAPIHono<AppEnv>, deps: WatchToolDeps): void {
    const { watches, site } = deps;
    app.openAPIRegistry.registerComponent(
      'securitySchemes',
      manageKeyScheme.name,
      manageKeyScheme.scheme,
    );
    const manageKey = requireManageKey(watches);
    const withLinks = (c: Context, watch: WatchView) => ({
      ...watch,
      ...watchLinksOf(site, c, watch.id),
    });

    serveRoute(
      app,
      createRoute({
        method: 'post',
        path: '/',
        operationId: 'createWatch',
        tags,
        summary: 'Watch an address, host name or sending domain',
        description:
          'The first check runs now and counts one unit of the caller’s quota of the IP tool (kind ip) or the domain tool (kind domain).',
        security: captchaSecurity,
        request: {
          headers: captchaHeader,
          body: {
            required: true,
            content: { 'application/json': { schema: createWatchRequest } },
          },
        },
        responses: {
          201: {
            description: 'The watch, its manage key and webhook secret (shown once), its links',
            content: { 'application/json': { schema: createdWatchSchema } },
          },
          ...errorResponses('createWatch', createErrors, { withQuota: true }),
        },
      }),
      async (c, next) => {
        // Until the body names its kind, errors carry the IP tool's quota status.
        c.set('tool', 'ip');
        await next();
      },
      jsonBodyGate,
      async (c) => {
        const body = await readJsonBody(c, createWatchRequest);
        const kind = body.kind ?? 'ip';
        c.set('tool', kind);
        // A target that cannot be one costs nothing: the engine reads it again.
        const parsed = kind === 'ip' ? parseTarget(body.target) : parseHostName(body.target);
        if (!parsed.ok) throw new ApiError('invalid_target', parsed.reason);
        if (!deps.isConfigured()) {
          throw new ApiError(
            'not_configured',
            deps.notConfiguredReason?.() ??
              'the service is not ready: its DNS resolver does not answer',
          );
        }
        const { address, subject } = c.get('caller');
        // As every fresh check: the unit taken in one atomic step (nothing left is a 429 without a
        // provider call); a watch holds a place for months, so with a provider every creation
        // needs a solved captcha, free checks or not (docs/watches.md, "Limits").
        const reading = await deps.guard.read(kind, subject);
        const quota = await reading.take(captchaTokenOf(c, body), address, { alwaysCaptcha: true });
        const credential = bearerToken(c.req.header('authorization'));
        const outcome = await watches
          .create({
            target: body.target,
            kind,
            ...(body.interval_s === undefined ? {} : { interval_s: body.interval_s }),
            ...(body.webhook_url ? { webhook_url: body.webhook_url } : {}),
            subject,
            ...(credential === undefined ? {} : { credential }),
          })
          .catch(async (error: unknown) => {
            await reading.refund();
            throw error;
          });
        if (!outcome.ok) {
          // A failed first check costs what a check's failure costs; a refusal that is not the
          // check's (a cap, the webhook, our resolver not ready or caught lying) gives it back.
          if (outcome.error === 'dns_unavailable' || outcome.error === 'invalid_target') {
            await chargeFailedCheck(reading, outcome);
          } else {
            await reading.refund();
          }
          throw refused(outcome);
        }
        return c.json(
          {
            ...withLinks(c, outcome.watch),
            manage_key: outcome.manage_key,
            ...(outcome.webhook_secret ? { webhook_secret: outcome.webhook_secret } : {}),
            ...quota,
          },
          201,
        );
      },
    );

    serveRoute(
      app,
      createRoute({
        method: 'get',
        path: '/{id}',
        operationId: 'getWatch',
        tags,
        summary: 'The public view of a watch: its status and its history of changes',
        description:
          'Anyone with the id reads it; with its manage key (Authorization: Bearer <manage_key>) the webhook’s last delivery is shown too.',
        // Public: the manage key is optional here, so none is declared (docs/watches.md).
        security: [],
        request: { params: watchIdParams },
        responses: {
          200: {
            description: 'The watch; revalidate it with its ETag (Cache-Control: no-cache)',
            content: { 'application/json': { schema: publicWatchSchema } },
          },
          304: { description: 'Not modified: If-None-Match matched the ETag.' },
          ...errorResponses('getWatch', ['not_found', 'manage_key_wrong', 'store_unavailable']),
        },
      }),
      async (c) => {
        const id = c.req.param('id')!;
        const withDelivery = await holdsManageKey(watches, id, c.req.header('authorization'));
        const watch = await watches.view(id, { withDelivery });
        if (!watch || watch.ended) throw watchNotFound();
        return liveJson(c, withLinks(c, watch), deps.digest);
      },
    );

    serveRoute(
      app,
      createRoute({
        method: 'patch',
        path: '/{id}',
        operationId: 'updateWatch',
        tags,
        summary: 'Change a watch’s interval, webhook or pause, and renew it',
        security: manageKeySecurity,
        request: {
          params: watchIdParams,
          body: {
            required: true,
            content: { 'application/json': { schema: updateWatchRequest } },
          },
        },
        responses: {
          200: {
            description: 'The watch, renewed; a new webhook_url’s secret, shown once',
            content: { 'application/json': { schema: updatedWatchSchema } },
          },
          ...errorResponses('updateWatch', [
            ...keyErrors,
            ...bodyErrors,
            'invalid_webhook',
            'watch_limit',
          ]),
        },
      }),
      manageKey,
      jsonBodyGate,
      async (c) => {
        const body = await readJsonBody(c, updateWatchRequest);
        const outcome = await watches.update(c.req.param('id')!, {
          ...(body.interval_s === undefined ? {} : { interval_s: body.interval_s }),
          ...(body.webhook_url === undefined ? {} : { webhook_url: body.webhook_url }),
          ...(body.paused === undefined ? {} : { paused: body.paused }),
          // The renewing caller takes the watch's places again, within the caps.
          subject: c.get('caller').subject,
        });
        if (!outcome.ok) throw refused(outcome);
        return c.json(
          {
            ...withLinks(c, outcome.watch),
            ...(outcome.webhook_secret ? { webhook_secret: outcome.webhook_secret } : {}),
          },
          200,
        );
      },
    );

    serveRoute(
      app,
      createRoute({
        method: 'delete',
        path: '/{id}',
        operationId: 'deleteWatch',
        tags,
        summary: 'End a watch: its schedule and its pending deliveries end with it',
        security: manageKeySecurity,
        request: { params: watchIdParams },
        responses: {
          204: { description: 'Deleted' },
          ...errorResponses('deleteWatch', keyErrors),
        },
      }),
      manageKey,
      async (c) => {
        const outcome = await watches.remove(c.req.param('id')!);
        if (!outcome.ok) throw refused(outcome);
        return c.body(null, 204);
      },
    );

    serveRoute(
      app,
      createRoute({
        method: 'post',
        path: '/{id}/test',
        operationId: 'testWatchWebhook',
        tags,
        summary: 'Send a watch.test event to the webhook now',
        security: manageKeySecurity,
        request: { params: watchIdParams },
        responses: {
          202: {
            description: 'Queued for delivery, signed as every event',
            content: { 'application/json': { schema: testQueuedSchema } },
          },
          ...errorResponses('testWatchWebhook', [...keyErrors, 'invalid_request', 'test_pending']),
        },
      }),
      manageKey,
      async (c) => {
        const outcome = await watches.sendTest(c.req.param('id')!);
        if (!outcome.ok) throw refused(outcome);
        return c.json({ queued: 'watch.test' as const }, 202);
      },
    );

    addWatchViews(app, watchTool, deps);
  },
  webhooks: addWatchWebhooks,
});
