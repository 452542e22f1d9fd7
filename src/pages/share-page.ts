import { html } from 'hono/html';
import { type Lang, type Translate, toolText } from '../i18n/index.js';
import { renderPage } from './layout.js';
import { type ResultView, describeResult, resultView } from './result-view.js';
import type { Site } from './site.js';
import type { ShareSummary } from '../share/index.js';

/**
 * The share page: the result as a person reads it, the card, and the badge's embed snippets with
 * copy buttons; Open Graph and Twitter card tags point at the PNG card, so a pasted link unfurls.
 * Absolute URLs (tags, snippets) come from the public origin (docs/pages.md); links between
 * pages are paths. `html` escapes every interpolated value.
 */

export interface SharePageLinks {
  /** Absolute: the page itself, its card and its badge (for link previews and embeds). */
  page: string;
  card: string;
  badge: string;
  /**
   * Paths of the card and badge the page itself shows: the browser resolves them on the page's
   * own origin, which the pages' Content-Security-Policy allows as `'self'` (src/pages/csp.ts).
   */
  images: { card: string; badge: string };
  /** Paths: the result as JSON, the check page with this tool selected. */
  result: string;
  checkAnother: string;
}

export interface SharePage {
  site: Site;
  lang: Lang;
  t: Translate;
  /** The tool's own drawing of the result (src/tools/<tool>/page.ts). */
  view: ResultView;
  summary: ShareSummary;
  links: SharePageLinks;
  languageHref: (lang: Lang) => string;
}

/**
 * Beside the ASCII form of a look-alike, and only there: its Unicode form, with why it is not
 * the one shown (UTS #39 mixed scripts; src/reputation/targets/targets.ts).
 */
function lookAlikeWarning(
  { unicode, scripts }: NonNullable<ShareSummary['lookAlike']>,
  t: Translate,
): string {
  const mixed = scripts.length > 1 ? scripts.join(t('list.and')) : t('share.lookAlike.several');
  return t('share.lookAlike', { unicode, scripts: mixed });
}

const ogLocales: Record<Lang, string> = { en: 'en_US', ru: 'ru_RU' };

export async function renderSharePage(page: SharePage): Promise<string> {
  const { t, summary, links, lang } = page;
  const context = { lang, t, summary };
  const tool = toolText(t, 'tool', summary.tool);
  const heading = t('share.heading', { tool, target: summary.target });
  const title = t('share.title', {
    tool,
    target: summary.target,
    site: t('site.name'),
  });
  const description = describeResult(context);
  const cardAlt = t('share.cardAlt', { description });
  const markdown = `[![${summary.target}](${links.badge})](${links.page})`;
  const embed = `<a href="${links.page}"><img src="${links.badge}" alt="${summary.target}"></a>`;
  const head = html`<meta property="og:type" content="website" />
    <meta property="og:site_name" content="${t('site.name')}" />
    <meta property="og:locale" content="${ogLocales[lang]}" />
    <meta property="og:title" content="${title}" />
    <meta property="og:description" content="${description}" />
    <meta property="og:url" content="${links.page}" />
    <meta property="og:image" content="${links.card}" />
    <meta property="og:image:type" content="image/png" />
    <meta property="og:image:width" content="1200" />
    <meta property="og:image:height" content="630" />
    <meta property="og:image:alt" content="${cardAlt}" />
    <meta name="twitter:card" content="summary_large_image" />
    <meta name="twitter:title" content="${title}" />
    <meta name="twitter:description" content="${description}" />
    <meta name="twitter:image" content="${links.card}" />
    <meta name="twitter:image:alt" content="${cardAlt}" />
    <link rel="canonical" href="${links.page}" />`;
  const snippet = (id: string, label: string, text: string) =>
    html`<div class="snippet">
      <div class="snippet-head">
        <strong>${label}</strong>
        <button
          type="button"
          class="secondary"
          data-copy="${id}"
          data-copied="${t('share.copied')}"
          hidden
        >
          ${t('share.copy')}
        </button>
      </div>
      <pre><code id="${id}">${text}</code></pre>
    </div>`;
  const content = html`<p>
      <a class="button secondary" href="${links.checkAnother}">${t('share.checkAnother')}</a>
    </p>
    <h1>${heading}</h1>
    ${summary.lookAlike ? html`<p class="warning"><strong>${lookAlikeWarning(summary.lookAlike, t)}</strong></p>` : ''}
    <p>
      <img class="card" src="${links.images.card}" width="1200" height="630" alt="${cardAlt}" />
    </p>
    <div class="panel">${resultView(page.view, context)}</div>
    <section class="panel share">
      <h2>${t('share.embed')}</h2>
      <p><img src="${links.images.badge}" alt="${summary.target}" /></p>
      ${snippet('snippet-markdown', t('share.markdown'), markdown)}
      ${snippet('snippet-html', t('share.html'), embed)}
      <nav class="share-links">
        <ul>
          <li><a href="${links.result}">${t('share.json')}</a></li>
          <li><a href="${links.card}">${t('share.card')}</a></li>
          <li><a href="${links.badge}">${t('share.badge')}</a></li>
        </ul>
      </nav>
    </section>`;
  return renderPage({
    site: page.site,
    lang,
    t,
    title,
    description,
    head,
    languageHref: page.languageHref,
    content,
  });
}
