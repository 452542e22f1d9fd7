import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  type AppEnv,
  errorResponses,
  jsonBodyErrors,
  jsonBodyGate,
  readJsonBody,
  serveRoute,
} from '../../http/index.js';
import { readWatchTarget, watchErrors, watchKinds } from '../../watch/index.js';
import {
  captchaHeader,
  captchaSecurity,
  captchaTokenOf,
  chargedCheck,
  freshCheckErrors,
  requireReady,
} from '../common/index.js';
import { pickLanguage } from '../../i18n/index.js';
import { refused, tags, withLinks } from './answers.js';
import type { WatchToolDeps } from './deps.js';
import { bearerToken } from './manage-key.js';
import { createdWatchSchema, createWatchRequest } from './schemas.js';

/**
 * POST /watch/v1: a new watch, whose first check is a fresh check as every tool's (the unit of
 * quota of the IP or the domain tool, src/tools/common/fresh-check.ts), run by the engine.
 */
export function addCreateWatch(app: OpenAPIHono<AppEnv>, deps: WatchToolDeps): void {
  const { watches, site } = deps;
  serveRoute(
    app,
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createWatch',
      tags,
      summary: 'Watch an address, host name, sending domain or a domain’s mail setup',
      description:
        'The first check runs now and counts one unit of the caller’s quota of the IP tool (kind ip), the domain tool (kind domain) or the mail tool (kind mail).',
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
        ...errorResponses(
          'createWatch',
          [...jsonBodyErrors, ...freshCheckErrors, ...watchErrors.create],
          { withQuota: true },
        ),
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
      const { tool } = watchKinds[kind];
      c.set('tool', tool);
      // A target that cannot be one costs nothing: the engine reads it again.
      const read = readWatchTarget(
        kind,
        body.target,
        deps.knownZones ? { knownZones: deps.knownZones } : {},
      );
      if (!read.ok) throw refused(read);
      requireReady(deps);
      const { address, subject } = c.get('caller');
      const reading = await deps.guard.read(tool, subject);
      const credential = bearerToken(c.req.header('authorization'));
      // A watch holds a place for months, so with a provider every creation needs a solved
      // captcha, free checks or not (docs/watches.md, "Limits").
      const { outcome, quota } = await chargedCheck(
        { reading, captchaToken: captchaTokenOf(c, body), address, alwaysCaptcha: true },
        () =>
          watches.create(
            {
              target: body.target,
              kind,
              ...(body.interval_s === undefined ? {} : { interval_s: body.interval_s }),
              ...(body.webhook_url ? { webhook_url: body.webhook_url } : {}),
              ...(body.confirmations === undefined ? {} : { confirmations: body.confirmations }),
              ...(body.dkim_selectors === undefined ? {} : { dkim_selectors: body.dkim_selectors }),
              ...(body.webhook_format === undefined ? {} : { webhook_format: body.webhook_format }),
              ...(typeof body.email === 'string' ? { email: body.email } : {}),
              lang: body.lang ?? pickLanguage(c.req.query('lang'), c.req.header('accept-language')),
              // Its events' links stay absolute without PUBLIC_URL (docs/watches.md).
              origin: site.publicOrigin(c).base,
            },
            // The caller owns it: its places under the caps; OPERATOR_TOKEN makes it the operator's.
            { caller: subject, ...(credential === undefined ? {} : { credential }) },
          ),
      );
      return c.json(
        {
          ...withLinks(site, c, outcome.watch),
          manage_key: outcome.manage_key,
          ...(outcome.webhook_secret ? { webhook_secret: outcome.webhook_secret } : {}),
          ...quota,
        },
        201,
      );
    },
  );
}
