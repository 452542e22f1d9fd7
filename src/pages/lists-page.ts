import { html } from 'hono/html';
import type { Lang, Translate } from '../i18n/index.js';
import type { DnsblZone, ListHealth, ServiceReadiness } from '../reputation/index.js';
import { type Html, renderPage } from './layout.js';
import type { Site } from './site.js';

/**
 * `GET {BASE_PATH}/lists` for a browser (docs/pages.md): each list's state and why, what it lists,
 * its policy and its links, in the reader's language. The states and reasons are GET /lists'
 * JSON (the zone monitor's); what a list lists and its policy are the zone list's own texts in
 * both languages (assets/dnsbl-zones.json).
 */

export interface ListsPage {
  site: Site;
  lang: Lang;
  t: Translate;
  readiness: ServiceReadiness;
  lists: readonly ListHealth[];
  /** The zone list, for what each list lists, its policy and links. */
  zones: readonly DnsblZone[];
  languageHref: (lang: Lang) => string;
}

/** A lookup page whose address names the target: the page itself, with the target left empty. */
function lookupPage(template: string): string {
  return template.replace(/\{(ip|domain|target)\}/g, '');
}

/**
 * Why a list is in its state. The zone monitor writes it in English for the operator (with times
 * and DNS statuses); another language says the same by the list's state, key and last self-test,
 * and the exact words stay in the JSON and on the English page.
 */
function reasonOf(list: ListHealth, lang: Lang, t: Translate): Html | string {
  if (lang === 'en') return html`<span class="note">${list.reason}</span>`;
  const reason =
    list.state === 'active'
      ? t(list.test_entry === null ? 'lists.reason.trusted' : 'lists.reason.proven')
      : list.state === 'on_hold'
        ? t('lists.reason.onHold')
        : list.key !== null && list.reason.includes(list.key)
          ? t('lists.reason.needsKey', { key: list.key })
          : list.last_self_test_result === 'failed'
            ? t('lists.reason.failed')
            : t('lists.reason.notProven');
  return html`<span class="note">${reason}</span>`;
}

export function renderListsPage(page: ListsPage): Promise<string> {
  const { site, lang, t } = page;
  const byZone = new Map(page.zones.map((zone) => [zone.zone, zone]));
  const row = (list: ListHealth) => {
    const zone = byZone.get(list.zone);
    const links = [
      ...(zone?.source ? [[zone.source, t('lists.source')] as const] : []),
      ...(zone?.lookupUrl ? [[lookupPage(zone.lookupUrl), t('lists.lookup')] as const] : []),
      ...(zone?.delistUrl ? [[zone.delistUrl, t('result.delist')] as const] : []),
    ];
    return html`<tr>
      <td data-label="${t('result.list')}">${list.name} <span class="note">${list.zone}</span></td>
      <td data-label="${t('lists.state')}">
        <span class="state-${list.state}">${t(`lists.state.${list.state}`)}</span>
        ${reasonOf(list, lang, t)}
      </td>
      <td data-label="${t('lists.what')}">${zone?.lists?.[lang] ?? ''}</td>
      <td data-label="${t('lists.policy')}">${zone?.policy?.[lang] ?? ''}</td>
      <td data-label="${t('lists.links')}">
        ${links.map(([href, text]) => html`<a href="${href}" rel="nofollow noopener">${text}</a> `)}
      </td>
    </tr>`;
  };
  return renderPage({
    site,
    lang,
    t,
    title: `${t('lists.title')} – ${t('site.name')}`,
    description: t('lists.intro'),
    languageHref: page.languageHref,
    content: html`<h1>${t('lists.title')}</h1>
      <p class="lead">${t('lists.intro')}</p>
      ${
        page.readiness.configured
          ? ''
          : html`<section class="panel notice" role="status">
              <p><strong>${t('check.notReady')}</strong></p>
            </section>`
      }
      <div class="table-scroll">
        <table class="stacked">
          <thead>
            <tr>
              <th>${t('result.list')}</th>
              <th>${t('lists.state')}</th>
              <th>${t('lists.what')}</th>
              <th>${t('lists.policy')}</th>
              <th>${t('lists.links')}</th>
            </tr>
          </thead>
          <tbody>
            ${page.lists.map(row)}
          </tbody>
        </table>
      </div>
      <p><a class="button" href="${site.root}/?lang=${lang}">${t('nav.check')}</a></p>`,
  });
}
