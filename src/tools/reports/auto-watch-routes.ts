import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  type AppEnv,
  bodySizeGate,
  errorResponses,
  serveRoute,
  storeErrors,
} from '../../http/index.js';
import { translator } from '../../i18n/index.js';
import type { Inbox } from '../../reports/index.js';
import { sourceFailingEventSchema } from '../../watch/index.js';
import {
  answerEmailLink,
  asPages,
  codeQuery,
  emailCodeFailure,
  type EmailLink,
  type EmailLinkOutcome,
  emailLinkState,
  oneClickRequest,
  readOneClick,
  registerWebhookEvent,
  stateAnswer,
} from '../common/index.js';
import type { ReportsToolDeps } from './deps.js';
import type { AutoWatch } from './auto-watch.js';
import { inboxKeyErrors, inboxKeySecurity, inboxNotFound, keyedInbox } from './inbox-key.js';
import { inboxIdParams, storedAutoWatchSchema, tags } from './schemas.js';
import { languageOf } from './view.js';

/**
 * What an inbox's auto_watch adds to the API (docs/reports.md, "Reports meet watches"): the links
 * of its e-mails, the confirmation of its address (one for the inbox, whatever number of watches
 * it keeps) and the one-click unsubscribe (RFC 8058) of its notices, which stops the address for
 * the inbox and its watches; and its own webhook event. The links take no key: the code is the
 * proof, as a watch's links, and their pages and POSTs are the watch's
 * (src/tools/common/email-link-pages.ts).
 */

const linkState = emailLinkState(
  'ReportsEmailLink',
  'unconfirmed: the link can confirm the address; confirmed: it is (the inbox’s alerts go to it); unsubscribed: no mail goes to it for this inbox.',
);

type State = z.infer<typeof linkState>['email'];
type Failure = EmailLinkOutcome & { error: string };

const notFound: Failure = {
  error: 'not_found',
  reason: 'no reports inbox with this id, or no auto_watch address',
};

/** Besides its watches' events (the watch's), an inbox's auto_watch POSTs one of its own. */
export function addAutoWatchWebhooks(api: OpenAPIHono<AppEnv>): void {
  registerWebhookEvent(api, {
    type: 'reports.source_failing',
    tag: 'Reports',
    summary:
      'A sending address newly failed DMARC with at least the inbox’s min_messages in the last 30 days: once per inbox and address',
    schema: sourceFailingEventSchema,
    answers:
      'Any 2xx (or 410) delivers; anything else is retried after 5 s, 1 h and 24 h with the same webhook-id.',
  });
}

const autoWatchStatus = z
  .object({
    id: z.string(),
    domain: z.string(),
    auto_watch: storedAutoWatchSchema.nullable(),
    email: z
      .object({
        address: z.string(),
        state: z.enum(['unconfirmed', 'confirmed', 'unsubscribed']),
      })
      .nullable()
      .openapi({ description: 'The address alerts are e-mailed to, and whether it confirmed.' }),
    watches: z
      .array(
        z.object({
          ip: z.string(),
          watch_id: z.string(),
          watch_url: z
            .string()
            .openapi({ description: 'GET it: the watch, its status and history.' }),
        }),
      )
      .openapi({
        description:
          'The sources watched now, as the last run left them (a run follows reports, a PATCH, and each day).',
      }),
  })
  .openapi('ReportsAutoWatchStatus');

export function addAutoWatchRoutes(app: OpenAPIHono<AppEnv>, deps: ReportsToolDeps): void {
  const { site } = deps;
  const { autoWatch, store, inboxes } = deps.reports;

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/auto-watch',
      operationId: 'getReportsAutoWatch',
      tags,
      summary: 'The inbox’s auto_watch: its settings, its address’s state and the sources watched',
      description:
        'With the inbox’s key: the auto_watch as kept (its webhook or e-mail address, its format and threshold), whether its address is confirmed, and the sources it watches.',
      security: inboxKeySecurity,
      request: { params: inboxIdParams },
      responses: {
        200: {
          description: 'The auto_watch as it stands',
          content: { 'application/json': { schema: autoWatchStatus } },
        },
        ...errorResponses('getReportsAutoWatch', [...inboxKeyErrors, ...storeErrors]),
      },
    }),
    async (c) => {
      const inbox = await keyedInbox(c, inboxes);
      const root = `${site.publicOrigin(c).base}${site.basePath}/watch/v1`;
      const email = inbox.autoWatch ? await autoWatch.address(inbox.id) : null;
      return c.json(
        {
          id: inbox.id,
          domain: inbox.domain,
          auto_watch: (inbox.autoWatch as AutoWatch | null) ?? null,
          email: email && { address: email.address, state: stateOfEmail(email) },
          watches: (await autoWatch.watched(inbox.id)).map((watched) => ({
            ...watched,
            watch_url: `${root}/${watched.watch_id}`,
          })),
        },
        200,
        { 'Cache-Control': 'no-store' },
      );
    },
  );

  /** An answer in the client's form: a page for a browser, else JSON (or the JSON error). */
  async function answer(
    c: Context<AppEnv>,
    link: EmailLink,
    inbox: Inbox | undefined,
    outcome: EmailLinkOutcome,
  ): Promise<Response> {
    const lang = languageOf(c, inbox?.lang ?? 'en');
    const t = translator(lang);
    const id = c.req.param('id') ?? '';
    const code = c.req.query('code') ?? '';
    const address = (inbox && (await autoWatch.address(inbox.id))?.address) ?? '';
    const vars = { domain: inbox?.domain ?? '', address };
    return answerEmailLink(c, {
      site,
      lang,
      t,
      link,
      outcome,
      words: {
        button: {
          confirm: t('reports.email.confirmText', vars),
          unsubscribe: t('reports.email.unsubscribeText', vars),
        },
        confirmed: t('reports.email.confirmed', vars),
        unsubscribed: t('reports.email.unsubscribed', vars),
        wrong: t('reports.email.wrong'),
        expired: t('reports.email.expired'),
      },
      self: (other) =>
        `${site.root}/reports/v1/${encodeURIComponent(id)}/email/${link}?code=${encodeURIComponent(code)}&lang=${other}`,
      onward: inbox && {
        url: `${site.root}/reports/v1/view/${inbox.viewToken}`,
        text: t('reports.email.inboxLink'),
      },
      notFound: inboxNotFound,
    });
  }

  const inboxOf = (c: Context) => store.inbox(c.req.param('id') ?? '');
  const stateOf = async (inbox: Inbox): Promise<State | undefined> => {
    const email = await autoWatch.address(inbox.id);
    return email ? stateOfEmail(email) : undefined;
  };
  const linkErrors = ['not_found', 'email_code_wrong', 'email_link_expired'] as const;

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/email/confirm',
      operationId: 'getReportsEmailConfirmPage',
      tags,
      security: [],
      summary: 'The confirmation link of an inbox’s auto_watch address: a page with a button',
      description:
        'The link the confirmation e-mail carries, `?code=` its code: a page whose button confirms, so a mail scanner that follows the link confirms nothing; JSON asked for, the address’s state.',
      request: { params: inboxIdParams, query: codeQuery },
      responses: {
        ...stateAnswer(
          'A page whose button POSTs to this URL; JSON: the address’s state',
          linkState,
        ),
        ...asPages(errorResponses('getReportsEmailConfirmPage', [...linkErrors, ...storeErrors])),
      },
    }),
    async (c) => {
      const inbox = await inboxOf(c);
      const check = inbox
        ? await autoWatch.emailCode(inbox.id, c.req.query('code') ?? '')
        : 'not_found';
      if (check === 'ok')
        return answer(c, 'confirm', inbox, { state: 'unconfirmed', button: true });
      if (check === 'confirmed') return answer(c, 'confirm', inbox, { state: 'confirmed' });
      return answer(c, 'confirm', inbox, failureOf(check));
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'post',
      path: '/{id}/email/confirm',
      operationId: 'confirmReportsEmail',
      tags,
      security: [],
      summary: 'Confirm an inbox’s auto_watch address: its alerts go to it from now on',
      description:
        'The confirmation page’s button, with the e-mail’s `?code=`: the address is confirmed and the auto_watch’s alerts are mailed to it from then on.',
      request: { params: inboxIdParams, query: codeQuery },
      responses: {
        ...stateAnswer('Confirmed (again, if it was): a page, or JSON', linkState),
        ...asPages(errorResponses('confirmReportsEmail', [...linkErrors, ...storeErrors])),
      },
    }),
    async (c) => {
      const inbox = await inboxOf(c);
      const check = inbox
        ? await autoWatch.confirmEmail(inbox.id, c.req.query('code') ?? '')
        : 'not_found';
      // A second POST of the same link (a double click) confirms nothing more and fails nothing.
      if (check === 'ok' || check === 'confirmed') {
        return answer(c, 'confirm', inbox, { state: 'confirmed' });
      }
      return answer(c, 'confirm', inbox, failureOf(check));
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/email/unsubscribe',
      operationId: 'getReportsEmailUnsubscribePage',
      tags,
      security: [],
      summary: 'The unsubscribe link of an inbox’s e-mails: a page with a button, stopping nothing',
      description:
        'The unsubscribe link an inbox’s e-mails carry, `?code=` its code: a page whose button sends the one-click unsubscribe (RFC 8058); the GET itself stops nothing, as a mail scanner may follow it.',
      request: { params: inboxIdParams, query: codeQuery },
      responses: {
        ...stateAnswer(
          'A page whose button POSTs the one-click unsubscribe; JSON: the state',
          linkState,
        ),
        ...asPages(errorResponses('getReportsEmailUnsubscribePage', ['not_found', ...storeErrors])),
      },
    }),
    async (c) => {
      const inbox = await inboxOf(c);
      const state = inbox && (await stateOf(inbox));
      if (!inbox || !state) return answer(c, 'unsubscribe', inbox, notFound);
      if (state === 'unsubscribed') return answer(c, 'unsubscribe', inbox, { state });
      return answer(c, 'unsubscribe', inbox, { state, button: true });
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'post',
      path: '/{id}/email/unsubscribe',
      operationId: 'unsubscribeReportsEmail',
      tags,
      security: [],
      summary: 'One-click unsubscribe (RFC 8058): no more e-mail to that address for the inbox',
      description:
        'The URL of every notice’s List-Unsubscribe header, POSTed with the body List-Unsubscribe=One-Click (application/x-www-form-urlencoded or multipart/form-data), as mail clients do. The watches of the inbox lose the address too.',
      request: { params: inboxIdParams, query: codeQuery, body: oneClickRequest },
      responses: {
        ...stateAnswer('Unsubscribed (also when it was already): a page, or JSON', linkState),
        ...asPages(
          errorResponses('unsubscribeReportsEmail', [
            'invalid_request',
            'body_too_large',
            'not_found',
            'email_code_wrong',
            ...storeErrors,
          ]),
        ),
      },
    }),
    bodySizeGate,
    async (c) => {
      await readOneClick(c);
      const inbox = await inboxOf(c);
      const outcome = inbox
        ? await autoWatch.unsubscribeEmail(inbox.id, c.req.query('code') ?? '')
        : 'not_found';
      if (outcome === 'ok') return answer(c, 'unsubscribe', inbox, { state: 'unsubscribed' });
      return answer(c, 'unsubscribe', inbox, failureOf(outcome));
    },
  );
}

function stateOfEmail(email: { confirmed: boolean; unsubscribed?: boolean | undefined }): State {
  return email.unsubscribed ? 'unsubscribed' : email.confirmed ? 'confirmed' : 'unconfirmed';
}

function failureOf(check: 'not_found' | 'wrong' | 'expired' | 'ok' | 'confirmed'): Failure {
  return check === 'wrong' || check === 'expired' ? emailCodeFailure(check, 'inbox') : notFound;
}
