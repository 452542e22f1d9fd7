import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  type AppEnv,
  bodySizeGate,
  errorResponses,
  serveRoute,
  storeErrors,
} from '../../http/index.js';
import { type Lang, translator } from '../../i18n/index.js';
import { languageChoiceOf } from '../../pages/index.js';
import { type WatchFailure, watchErrors, type WatchView } from '../../watch/index.js';
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
  stateAnswer,
} from '../common/index.js';
import { tags, watchLinksOf } from './answers.js';
import type { WatchToolDeps } from './deps.js';
import { watchNotFound } from './manage-key.js';
import { watchIdParams } from './schemas.js';

/**
 * The links of a watch's e-mails (docs/watches.md, "E-mail"): `…/email/confirm?code=` and
 * `…/email/unsubscribe?code=`, with the pages and the one-click POST every alert e-mail's links
 * share (src/tools/common/email-link-pages.ts).
 */

const linkState = emailLinkState(
  'WatchEmailLink',
  'unconfirmed: the link can confirm the address; confirmed: it is (alerts go to it); unsubscribed: no mail goes to it for this watch.',
);

export function addEmailRoutes(app: OpenAPIHono<AppEnv>, deps: WatchToolDeps): void {
  const { watches, site } = deps;

  /** The page's language: `?lang=`, else the watch's (its e-mails' language), else the browser's. */
  function langOf(c: Context, view: WatchView | undefined): Lang {
    const choice = languageChoiceOf(c);
    return choice.explicit ? choice.lang : (view?.lang ?? choice.lang);
  }

  /** An answer in the client's form: a page for a browser, else JSON (or the JSON error). */
  function answer(
    c: Context<AppEnv>,
    link: EmailLink,
    view: WatchView | undefined,
    outcome: EmailLinkOutcome,
  ): Promise<Response> {
    const lang = langOf(c, view);
    const t = translator(lang);
    const id = c.req.param('id') ?? '';
    const code = c.req.query('code') ?? '';
    const path = `/watch/v1/${encodeURIComponent(id)}/email/${link}`;
    const vars = { target: view?.target ?? '', address: view?.email?.address ?? '' };
    return answerEmailLink(c, {
      site,
      lang,
      t,
      link,
      outcome,
      words: {
        button: {
          confirm: t('email.page.confirmText', vars),
          unsubscribe: t('email.page.unsubscribeText', vars),
        },
        confirmed: t('email.page.confirmed', vars),
        unsubscribed: t('email.page.unsubscribed', vars),
        wrong: t('email.page.wrong'),
        expired: t('email.page.expired'),
      },
      self: (other) => `${site.root}${path}?code=${encodeURIComponent(code)}&lang=${other}`,
      onward: view && {
        url: watchLinksOf(site, c, view.id).page_url,
        text: t('email.page.watchLink'),
      },
      notFound: watchNotFound,
    });
  }

  /** The live watch of the link, or the 404 in the client's form. */
  async function liveView(id: string): Promise<WatchView | undefined> {
    const view = await watches.view(id);
    return view && !view.ended ? view : undefined;
  }

  const notFound: WatchFailure = {
    ok: false,
    error: 'not_found',
    reason: 'no watch with this id (unknown, deleted or ended)',
  };

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/email/confirm',
      operationId: 'getEmailConfirmPage',
      tags,
      security: [],
      summary:
        'The confirmation link of a watch’s e-mail: a page with a button, confirming nothing',
      description:
        'The link of the confirmation message. GET changes nothing (a mail scanner that follows links confirms nothing): a browser gets a page whose button POSTs to the same URL, any other client the address’s state as JSON. The code works for 24 hours.',
      request: { params: watchIdParams, query: codeQuery },
      responses: {
        ...stateAnswer(
          'A page whose button POSTs to this URL; JSON: the address’s state',
          linkState,
        ),
        ...asPages(
          errorResponses('getEmailConfirmPage', [...watchErrors.confirmEmail, ...storeErrors]),
        ),
      },
    }),
    async (c) => {
      const id = c.req.param('id') ?? '';
      const view = await liveView(id);
      const check = view ? await watches.emailCode(id, c.req.query('code') ?? '') : 'not_found';
      if (check === 'ok') return answer(c, 'confirm', view, { state: 'unconfirmed', button: true });
      if (check === 'confirmed') return answer(c, 'confirm', view, { state: 'confirmed' });
      if (check === 'not_found') return answer(c, 'confirm', view, notFound);
      return answer(c, 'confirm', view, emailCodeFailure(check, 'watch'));
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'post',
      path: '/{id}/email/confirm',
      operationId: 'confirmEmail',
      tags,
      security: [],
      summary: 'Confirm a watch’s e-mail address: alerts go to it from now on',
      description:
        'The POST of the confirmation page’s button, with the code of the newest confirmation message: the address gets the watch’s alerts from now on. A code that is not the watch’s is 403 `email_code_wrong`, one older than 24 hours 410 `email_link_expired`; confirming again is 200.',
      request: { params: watchIdParams, query: codeQuery },
      responses: {
        ...stateAnswer('Confirmed (again, if it was): a page, or JSON', linkState),
        ...asPages(errorResponses('confirmEmail', [...watchErrors.confirmEmail, ...storeErrors])),
      },
    }),
    async (c) => {
      const id = c.req.param('id') ?? '';
      const view = await liveView(id);
      const outcome = await watches.confirmEmail(id, c.req.query('code') ?? '');
      if (!outcome.ok) return answer(c, 'confirm', view, outcome);
      return answer(c, 'confirm', await liveView(id), { state: 'confirmed' });
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'get',
      path: '/{id}/email/unsubscribe',
      operationId: 'getEmailUnsubscribePage',
      tags,
      security: [],
      summary: 'The unsubscribe link of a watch’s e-mails: a page with a button, stopping nothing',
      description:
        'The link at the foot of every alert. GET changes nothing: a browser gets a page whose button POSTs the one-click unsubscribe (RFC 8058), any other client the address’s state as JSON.',
      request: { params: watchIdParams, query: codeQuery },
      responses: {
        ...stateAnswer(
          'A page whose button POSTs the one-click unsubscribe; JSON: the state',
          linkState,
        ),
        ...asPages(errorResponses('getEmailUnsubscribePage', ['not_found', ...storeErrors])),
      },
    }),
    async (c) => {
      const view = await liveView(c.req.param('id') ?? '');
      if (!view) return answer(c, 'unsubscribe', view, notFound);
      if (!view.email) return answer(c, 'unsubscribe', view, { state: 'unsubscribed' });
      return answer(c, 'unsubscribe', view, {
        state: view.email.confirmed ? 'confirmed' : 'unconfirmed',
        button: true,
      });
    },
  );

  serveRoute(
    app,
    createRoute({
      method: 'post',
      path: '/{id}/email/unsubscribe',
      operationId: 'unsubscribeEmail',
      tags,
      security: [],
      summary: 'One-click unsubscribe (RFC 8058): no more e-mail to that address for that watch',
      description:
        'The URL of every alert’s List-Unsubscribe header, POSTed with the body List-Unsubscribe=One-Click (application/x-www-form-urlencoded or multipart/form-data), as mail clients do.',
      request: {
        params: watchIdParams,
        query: codeQuery,
        body: oneClickRequest,
      },
      responses: {
        ...stateAnswer('Unsubscribed (also when it was already): a page, or JSON', linkState),
        ...asPages(
          errorResponses('unsubscribeEmail', [
            'invalid_request',
            'body_too_large',
            ...watchErrors.unsubscribeEmail,
            ...storeErrors,
          ]),
        ),
      },
    }),
    bodySizeGate,
    async (c) => {
      const id = c.req.param('id') ?? '';
      await readOneClick(c);
      const view = await liveView(id);
      const outcome = await watches.unsubscribeEmail(id, c.req.query('code') ?? '');
      if (!outcome.ok) return answer(c, 'unsubscribe', view, outcome);
      return answer(c, 'unsubscribe', view, { state: 'unsubscribed' });
    },
  );
}
