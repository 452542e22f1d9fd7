import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { html } from 'hono/html';
import {
  ApiError,
  type AppEnv,
  type ErrorCode,
  errorResponses,
  prefersHtml,
} from '../../http/index.js';
import type { Lang, Translate } from '../../i18n/index.js';
import { htmlResponse, renderPage, type Site } from '../../pages/index.js';

/**
 * What the links of an alert e-mail open, whoever sends it (a watch's, a reports inbox's;
 * docs/watches.md, "E-mail"): `…/email/confirm?code=` and `…/email/unsubscribe?code=`. A GET only
 * shows a page with a button (a mail scanner that follows a link changes nothing); the POST
 * confirms the address, or stops its mail at once. The unsubscribe POST is RFC 8058's one-click:
 * the body `List-Unsubscribe=One-Click`, form-encoded or multipart, no cookie, no page. A browser
 * (Accept preferring text/html) gets pages, any other client JSON.
 */

export const codeQuery = z.object({
  code: z.string().openapi({
    param: { name: 'code', in: 'query' },
    description: 'The code the e-mail’s link carries.',
  }),
});

export const oneClickBody = z
  .object({
    'List-Unsubscribe': z.literal('One-Click').openapi({
      description: 'RFC 8058 §3.1: the one-click unsubscribe.',
    }),
  })
  .openapi('WatchEmailOneClick');

/** The one-click POST's body, as mail clients send it (a 400 for anything else). */
export const oneClickRequest = {
  required: true,
  content: {
    'application/x-www-form-urlencoded': { schema: oneClickBody },
    'multipart/form-data': { schema: oneClickBody },
  },
};

/** The errors' documented answers, each also an HTML page for a browser. */
export function asPages(responses: ReturnType<typeof errorResponses>) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      {
        ...response,
        description: `${response.description} (an HTML page when the client prefers text/html)`,
        content: { 'text/html': { schema: z.string() }, ...response.content },
      },
    ]),
  );
}

/**
 * A link's state as JSON, under the owner's schema name: what `unconfirmed`, `confirmed` and
 * `unsubscribed` mean for that owner's mail.
 */
export function emailLinkState(id: string, meaning: string) {
  return z
    .object({
      email: z.enum(['unconfirmed', 'confirmed', 'unsubscribed']).openapi({ description: meaning }),
    })
    .openapi(id);
}

/** A code that is not the owner's, or is past its 24 hours: the link's error and its reason. */
export function emailCodeFailure(
  check: 'wrong' | 'expired',
  owner: string,
): { error: Extract<ErrorCode, 'email_code_wrong' | 'email_link_expired'>; reason: string } {
  return check === 'expired'
    ? { error: 'email_link_expired', reason: 'this link has expired: its 24 hours are past' }
    : { error: 'email_code_wrong', reason: `this link is not the ${owner}’s` };
}

/** A link's 200: a page, or its state as JSON. */
export const stateAnswer = (description: string, state: z.ZodType) => ({
  200: {
    description,
    content: {
      'text/html': { schema: z.string() },
      'application/json': { schema: state },
    },
  },
});

/** Reads the one-click body: `List-Unsubscribe=One-Click`, or the 400 that says so. */
export async function readOneClick(c: Context<AppEnv>): Promise<void> {
  // A body that is no form reads as none (400 below); a body past the limit stays a 413.
  const form = await c.req.parseBody().catch((error: unknown) => {
    if (error instanceof ApiError) throw error;
    return {} as Record<string, unknown>;
  });
  if (form['List-Unsubscribe'] !== 'One-Click') {
    throw new ApiError(
      'invalid_request',
      'the body must be List-Unsubscribe=One-Click (RFC 8058), form-encoded',
    );
  }
}

/** A page an e-mail's link opens: a button whose POST does what the link is for, or what came of it. */
export interface EmailPage {
  site: Site;
  lang: Lang;
  t: Translate;
  title: string;
  text: string;
  /** The button, POSTing to the link itself; none on a page that says what came of a POST. */
  form?: { action: string; button: string; oneClick?: boolean };
  /** A link onward (the watch's live page, the inbox's dashboard), with its words. */
  onward?: { url: string; text: string };
  languageHref: (lang: Lang) => string;
}

export function renderEmailPage(page: EmailPage): Promise<string> {
  const { site, lang, t } = page;
  return renderPage({
    site,
    lang,
    t,
    title: `${page.title} – ${t('site.name')}`,
    description: page.text,
    languageHref: page.languageHref,
    // No referrer: the link's code stays out of whatever the page links to.
    head: html`<meta name="referrer" content="no-referrer" />`,
    content: html`<h1>${page.title}</h1>
      <p id="email-outcome">${page.text}</p>
      ${
        page.form
          ? html`<form method="post" action="${page.form.action}">
              ${
                page.form.oneClick
                  ? html`<input type="hidden" name="List-Unsubscribe" value="One-Click" />`
                  : ''
              }
              <button type="submit" class="button">${page.form.button}</button>
            </form>`
          : ''
      }
      ${page.onward ? html`<p><a href="${page.onward.url}">${page.onward.text}</a></p>` : ''}`,
  });
}

/** A page behind a secret link: never kept by a cache, never sent as a referrer. */
export function emailPageResponse(
  c: Context<AppEnv>,
  site: Site,
  body: string,
  status: 200 | 403 | 404 | 410,
): Response {
  return htmlResponse(c, site, {
    body,
    status,
    cacheControl: 'no-store',
    vary: 'Accept, Accept-Language',
  });
}

export type EmailLink = 'confirm' | 'unsubscribe';

/** What a link came to: its address's state (with the button, on a GET that changed nothing), or why not. */
export type EmailLinkOutcome =
  | { state: 'unconfirmed' | 'confirmed' | 'unsubscribed'; button?: boolean }
  | { error: string; reason: string };

/** The words of a link's page, in its language, with the owner's names filled in. */
export interface EmailLinkWords {
  button: Record<EmailLink, string>;
  confirmed: string;
  unsubscribed: string;
  wrong: string;
  expired: string;
}

/**
 * The answer of an e-mail's link in the client's form, whoever owns it: a page for a browser
 * (Accept preferring text/html), else JSON, or the JSON error. `self` is the link's URL in a
 * language; `notFound` the owner's 404.
 */
export async function answerEmailLink(
  c: Context<AppEnv>,
  answer: {
    site: Site;
    lang: Lang;
    t: Translate;
    link: EmailLink;
    outcome: EmailLinkOutcome;
    words: EmailLinkWords;
    self: (lang: Lang) => string;
    onward?: { url: string; text: string } | undefined;
    notFound: () => ApiError;
  },
): Promise<Response> {
  const { site, lang, t, link, outcome, words } = answer;
  const failed = 'error' in outcome;
  if (!prefersHtml(c.req.header('accept'))) {
    if (failed) {
      throw outcome.error === 'not_found'
        ? answer.notFound()
        : new ApiError(outcome.error as ErrorCode, outcome.reason);
    }
    return c.json({ email: outcome.state }, 200, { 'Cache-Control': 'no-store' });
  }
  const status = failed
    ? outcome.error === 'email_link_expired'
      ? 410
      : outcome.error === 'email_code_wrong'
        ? 403
        : 404
    : 200;
  const text = failed
    ? { 410: words.expired, 403: words.wrong, 404: t('error.not_found') }[status as 403 | 404 | 410]
    : outcome.button
      ? words.button[link]
      : outcome.state === 'confirmed'
        ? words.confirmed
        : words.unsubscribed;
  const body = await renderEmailPage({
    site,
    lang,
    t,
    title: t(link === 'confirm' ? 'email.page.confirmTitle' : 'email.page.unsubscribeTitle'),
    text,
    ...(!failed && outcome.button
      ? {
          form: {
            action: answer.self(lang),
            button: t(
              link === 'confirm' ? 'email.page.confirmButton' : 'email.page.unsubscribeButton',
            ),
            oneClick: link === 'unsubscribe',
          },
        }
      : {}),
    ...(answer.onward && status !== 404 ? { onward: answer.onward } : {}),
    languageHref: answer.self,
  });
  return emailPageResponse(c, site, body, status);
}
