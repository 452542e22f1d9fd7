import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { type Lang, type Translate, languageNames, languages } from '../i18n/index.js';
import type { Site } from './site.js';

/**
 * The frame of every page: head (title, description, stylesheet, script, the page's extra tags),
 * the site header with the language switch, the page's content, the footer. `html` escapes every
 * interpolated value; only the JSON data block is raw, and it is escaped for a script element.
 */

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface Frame {
  site: Site;
  lang: Lang;
  t: Translate;
  title: string;
  description: string;
  /** Extra head tags (Open Graph). */
  head?: Html;
  /** The same page in another language. */
  languageHref: (lang: Lang) => string;
  /** Data for the page script, as a `type="application/json"` block (no inline script). */
  data?: unknown;
  content: Html;
}

/**
 * JSON that cannot end the script element it sits in (`</script>`) or open a comment: `<`, `>`,
 * `&` and the two line separators JavaScript once disallowed in strings become escapes.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export async function renderPage(frame: Frame): Promise<string> {
  const { site, lang, t } = frame;
  const page = html`<!doctype html>
    <html lang="${lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${frame.title}</title>
        <meta name="description" content="${frame.description}" />
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${site.root}/assets/${site.assets.style.file}" />
        ${frame.head ?? ''}
        <script src="${site.root}/assets/${site.assets.script.file}" defer></script>
      </head>
      <body>
        <header class="site">
          <a class="brand" href="${site.root}/?lang=${lang}">${t('site.name')}</a>
          <nav class="languages" aria-label="${t('nav.language')}">
            ${languages.map(
              (other) =>
                html`<a
                  href="${frame.languageHref(other)}"
                  hreflang="${other}"
                  lang="${other}"
                  aria-current="${other === lang ? 'true' : 'false'}"
                  >${languageNames[other]}</a
                >`,
            )}
          </nav>
        </header>
        <main>${frame.content}</main>
        <footer class="site-footer">
          <a href="${site.root}/openapi.json">${t('nav.api')}</a>
        </footer>
        ${
          frame.data === undefined
            ? ''
            : html`<script type="application/json" id="page-data">
                ${raw(scriptJson(frame.data))}
              </script>`
        }
      </body>
    </html>`;
  return (await page).toString();
}
