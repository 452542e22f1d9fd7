import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  ApiError,
  type AppEnv,
  errorResponses,
  guardErrors,
  jsonBodyErrors,
  jsonBodyGate,
  readJsonBody,
  serveRoute,
  storeErrors,
} from '../../http/index.js';
import { pickLanguage } from '../../i18n/index.js';
import type { Inbox, InboxDnsAnswer } from '../../reports/index.js';
import { organizationalDomain, targetOf } from '../../reputation/index.js';
import {
  bearerToken,
  captchaHeader,
  captchaSecurity,
  captchaTokenOf,
  chargedCheck,
} from '../common/index.js';
import type { ReportsToolDeps } from './deps.js';
import { createdInboxSchema, createInboxRequest, tags } from './schemas.js';

/**
 * POST /reports/v1: a new inbox for a domain, charged one unit of the reports tool's quota, with a
 * captcha whenever a provider is set (an inbox holds a place for a year, as a watch holds one), its
 * key shown once, and what the DNS says of it: the records to publish, the authorization, whether
 * it is verified already.
 */

/** The errors of reading a domain, beside the body's and the guard's. */
const domainErrors = ['invalid_target'] as const;

/** A domain an inbox may be for: a public host name below a public suffix (IDNA accepted). */
export function inboxDomain(text: string): string {
  // As the domain and mail tools read a domain (targetOf): IDNA, public names only.
  const parsed = targetOf('domain', text);
  if (!parsed.ok) throw new ApiError('invalid_target', parsed.reason);
  const name = parsed.text;
  // RFC 7489 §3.2: a public suffix is no organisation's domain, and publishes no DMARC record.
  if (organizationalDomain(name) === null)
    throw new ApiError('invalid_target', `${name} is a public suffix, not a domain of its own`);
  return name;
}

/** An inbox and what the DNS says of it, as the creation and verify answers show them. */
export function dnsAnswer(inbox: Inbox, address: string | null, dns: InboxDnsAnswer) {
  return {
    address,
    verified: inbox.verified,
    suggested: dns?.suggested ?? null,
    authorization: dns?.authorization ?? null,
  };
}

export function addCreateInbox(app: OpenAPIHono<AppEnv>, deps: ReportsToolDeps): void {
  const { inboxes } = deps.reports;
  serveRoute(
    app,
    createRoute({
      method: 'post',
      path: '/',
      operationId: 'createReportsInbox',
      tags,
      summary: 'Create an inbox for a domain’s DMARC aggregate and TLS reports',
      description:
        'Counts one unit of the caller’s quota of the reports tool; with a captcha provider every creation needs a solved captcha. With Authorization: Bearer <OPERATOR_TOKEN> the inbox is verified at once.',
      security: captchaSecurity,
      request: {
        headers: captchaHeader,
        body: { required: true, content: { 'application/json': { schema: createInboxRequest } } },
      },
      responses: {
        201: {
          description: 'The inbox, its key (shown once), its dashboard link and its DNS',
          content: { 'application/json': { schema: createdInboxSchema } },
        },
        ...errorResponses(
          'createReportsInbox',
          [...jsonBodyErrors, ...guardErrors, ...domainErrors, ...storeErrors],
          { withQuota: true },
        ),
      },
    }),
    async (c, next) => {
      // Errors carry the reports tool's quota status, as a check's carry its tool's.
      c.set('tool', 'reports');
      await next();
    },
    jsonBodyGate,
    async (c) => {
      const body = await readJsonBody(c, createInboxRequest);
      // A domain that cannot be one costs nothing.
      const domain = inboxDomain(body.domain);
      const { address, subject } = c.get('caller');
      const reading = await deps.guard.read('reports', subject);
      const credential = bearerToken(c.req.header('authorization'));
      const lang = body.lang ?? pickLanguage(c.req.query('lang'), c.req.header('accept-language'));
      const { outcome, quota } = await chargedCheck(
        { reading, captchaToken: captchaTokenOf(c, body), address, alwaysCaptcha: true },
        async () => ({
          ok: true as const,
          ...(await inboxes.create({
            domain,
            lang,
            ...(credential === undefined ? {} : { credential }),
          })),
        }),
      );
      const { inbox, key, dns } = outcome;
      // An inbox made with OPERATOR_TOKEN is the operator's: so are its auto_watch's watches.
      await deps.reports.autoWatch.created(inbox, credential);
      const origin = deps.site.publicOrigin(c).base;
      return c.json(
        {
          id: inbox.id,
          domain: inbox.domain,
          key,
          view_url: `${origin}${deps.site.basePath}/reports/v1/view/${inbox.viewToken}`,
          lang: inbox.lang,
          ...dnsAnswer(inbox, inboxes.addressOf(inbox), dns),
          ...quota,
        },
        201,
      );
    },
  );
}
