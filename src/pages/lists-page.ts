import { html } from 'hono/html';
import { type Lang, type Translate, formatDate } from '../i18n/index.js';
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

/** What a list is doing now, as the summary counts it: a list waiting for a key apart. */
type Standing = 'active' | 'on_hold' | 'needs_key' | 'disabled';

function standingOf(list: ListHealth): Standing {
  if (list.state !== 'disabled') return list.state;
  return needsKey(list) ? 'needs_key' : 'disabled';
}

/** Disabled because its operator's key is not set (the monitor's reason names the variable). */
function needsKey(list: ListHealth): boolean {
  return list.key !== null && list.reason.includes(list.key);
}

/** An ISO 8601 time in the monitor's English reasons (list-health.ts writes them so). */
const isoTime = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

/**
 * Why a list is in its state. The zone monitor writes it in English for the operator (with times
 * and DNS statuses); the English page shows those words with its times as the other pages write
 * them, and another language says the same by the list's state, key and last self-test, the
 * exact words staying in the JSON and on the English page.
 */
function reasonOf(list: ListHealth, lang: Lang, t: Translate): string {
  if (lang === 'en') return list.reason.replace(isoTime, (time) => formatDate(lang, time));
  if (list.state === 'active') {
    return t(list.test_entry === null ? 'lists.reason.trusted' : 'lists.reason.proven');
  }
  if (list.state === 'on_hold') return t('lists.reason.onHold');
  if (needsKey(list)) return t('lists.reason.needsKey', { key: list.key ?? '' });
  return list.last_self_test_result === 'failed'
    ? t('lists.reason.failed')
    : t('lists.reason.notProven');
}

/**
 * The page's first lines: how many lists there are and what they are doing, and whether the
 * resolver is proven honest (the checks run) or why not.
 */
function summaryOf(page: ListsPage): Html {
  const { lang, t, readiness } = page;
  const count = (standing: Standing) =>
    page.lists.filter((list) => standingOf(list) === standing).length;
  const parts = [
    t('lists.answering', { n: count('active') }),
    ...(count('on_hold') > 0 ? [t('count.onHold', { n: count('on_hold') })] : []),
    ...(count('needs_key') > 0 ? [t('count.needsKey', { n: count('needs_key') })] : []),
    ...(count('disabled') > 0 ? [t('count.disabled', { n: count('disabled') })] : []),
  ];
  return html`<section
    class="panel lists-summary${readiness.configured ? '' : ' notice'}"
    role="status"
  >
    <p><strong>${t('lists.total', { n: page.lists.length })}</strong>: ${parts.join(', ')}.</p>
    ${
      readiness.configured
        ? html`<p>${t('lists.resolverProven')}</p>`
        : html`<p><strong>${t('check.notReady')}</strong></p>
            ${lang === 'en' && readiness.reason ? html`<p class="note">${readiness.reason}</p>` : ''}`
    }
  </section>`;
}

/** The order of the groups: what needs the operator first, the answering lists last. */
const groupOrder: readonly Standing[] = ['on_hold', 'disabled', 'needs_key', 'active'];

export function renderListsPage(page: ListsPage): Promise<string> {
  const { site, lang, t } = page;
  const byZone = new Map(page.zones.map((zone) => [zone.zone, zone]));
  const about = (list: ListHealth) => {
    const zone = byZone.get(list.zone);
    const links = [
      ...(zone?.source ? [[zone.source, t('lists.source')] as const] : []),
      ...(zone?.lookupUrl ? [[lookupPage(zone.lookupUrl), t('lists.lookup')] as const] : []),
      ...(zone?.delistUrl ? [[zone.delistUrl, t('result.delist')] as const] : []),
    ];
    return html`<details class="list-about">
      <summary>${t('lists.about')}</summary>
      <dl class="facts">
        ${
          list.state === 'active'
            ? html`<dt>${t('lists.why')}</dt>
                <dd>${reasonOf(list, lang, t)}</dd>`
            : ''
        }
        ${
          zone?.lists
            ? html`<dt>${t('lists.what')}</dt>
                <dd>${zone.lists[lang]}</dd>`
            : ''
        }
        ${
          zone?.policy
            ? html`<dt>${t('lists.policy')}</dt>
                <dd>${zone.policy[lang]}</dd>`
            : ''
        }
        <dt>${t('lists.lastTest')}</dt>
        <dd>${list.last_self_test ? formatDate(lang, list.last_self_test) : t('lists.never')}</dd>
        ${
          links.length > 0
            ? html`<dt>${t('lists.links')}</dt>
                <dd>
                  ${links.map(
                    ([href, text]) => html`<a href="${href}" rel="nofollow noopener">${text}</a> `,
                  )}
                </dd>`
            : ''
        }
      </dl>
    </details>`;
  };
  const row = (list: ListHealth) =>
    html`<tr>
      <td data-label="${t('result.list')}" class="list-name">
        <strong>${list.name}</strong> <span class="note">${list.zone}</span>
        ${about(list)}
      </td>
      <td data-label="${t('lists.state')}">
        <span class="state-${list.state}">${t(`lists.state.${list.state}`)}</span>
        ${
          // An answering list's why is the same for all of them: in its details, not on each row.
          list.state === 'active' ? '' : html`<span class="note">${reasonOf(list, lang, t)}</span>`
        }
      </td>
    </tr>`;
  const group = (standing: Standing) => {
    const lists = page.lists.filter((list) => standingOf(list) === standing);
    if (lists.length === 0) return '';
    const title =
      standing === 'active'
        ? t('lists.answering', { n: lists.length })
        : standing === 'needs_key'
          ? t('count.needsKey', { n: lists.length })
          : standing === 'on_hold'
            ? t('count.onHold', { n: lists.length })
            : t('count.disabled', { n: lists.length });
    // The answering lists need no attention: folded, so the page opens on what does.
    return html`<details
      class="list-group"
      id="lists-${standing}"
      ${standing === 'active' ? '' : 'open'}
    >
      <summary>${title}</summary>
      <table class="stacked lists-table">
        <thead>
          <tr>
            <th>${t('result.list')}</th>
            <th>${t('lists.state')}</th>
          </tr>
        </thead>
        <tbody>
          ${lists.map(row)}
        </tbody>
      </table>
    </details>`;
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
      ${summaryOf(page)} ${groupOrder.map(group)}
      <p><a class="button" href="${site.root}/?lang=${lang}">${t('nav.check')}</a></p>`,
  });
}
