import { html } from 'hono/html';
import type { Lang, Translate } from '../i18n/index.js';
import { renderPage } from './layout.js';
import type { Site } from './site.js';

/**
 * The page a browser gets for a share link whose token is unknown or expired (an API client gets
 * the JSON 404): what happened, how long results are kept, and the way to check again.
 */
export function renderNotFoundPage(options: {
  site: Site;
  lang: Lang;
  t: Translate;
  /** A share link (results expire) or any other unknown path. */
  kind: 'result' | 'route';
  languageHref: (lang: Lang) => string;
}): Promise<string> {
  const { site, lang, t } = options;
  const title = options.kind === 'result' ? t('notFound.title') : t('error.not_found');
  const text =
    options.kind === 'result' ? t('notFound.text', { n: site.tokenTtlDays }) : t('notFound.route');
  return renderPage({
    site,
    lang,
    t,
    title: `${title} – ${t('site.name')}`,
    description: text,
    languageHref: options.languageHref,
    content: html`<h1>${title}</h1>
      <p>${text}</p>
      <p><a class="button" href="${site.root}/?lang=${lang}">${t('nav.check')}</a></p>`,
  });
}
