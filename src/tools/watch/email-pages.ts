import { html } from 'hono/html';
import type { Lang, Translate } from '../../i18n/index.js';
import { renderPage, type Site } from '../../pages/index.js';

/**
 * The pages an e-mail's links open (docs/watches.md, "E-mail"), in the site's layout and CSP: a
 * button whose POST does what the link is for (a mail scanner that follows the link does
 * nothing), or what came of it.
 */
export interface EmailPage {
  site: Site;
  lang: Lang;
  t: Translate;
  title: string;
  text: string;
  /** The button, POSTing to the link itself; none on a page that says what came of a POST. */
  form?: { action: string; button: string; oneClick?: boolean };
  /** The watch's live page. */
  watchUrl?: string;
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
      ${
        page.watchUrl
          ? html`<p><a href="${page.watchUrl}">${t('email.page.watchLink')}</a></p>`
          : ''
      }`,
  });
}
