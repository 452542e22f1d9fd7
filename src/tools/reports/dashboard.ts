import { html } from 'hono/html';
import type { Lang, MessageKey, Params, Translate } from '../../i18n/index.js';
import { addressHtml, type Html, renderPage, type Site } from '../../pages/index.js';
import { mattering } from '../../reports/index.js';
import { dailyChart, shortDay } from './daily-chart.js';
import { defaultDays } from './period.js';
import type { Summary, SummarySource } from './schemas.js';

/**
 * The dashboard (docs/reports.md, "The dashboard"), for whoever holds its link: one line first
 * (how much passed DMARC, how many sources fail and how many of those are listed), the daily chart,
 * the sources that matter with their reputation and what to do about each, the reporters, TLS, and
 * what the window holds. English and Russian, no script needed, 375 px and up: its tables become
 * labelled lines on a phone (`table.stacked`).
 */

export interface Dashboard {
  site: Site;
  lang: Lang;
  t: Translate;
  summary: Summary;
  /** The window is the default one (the last 30 days), which the line names so. */
  lastDays: boolean;
  languageHref: (lang: Lang) => string;
}

function numbers(lang: Lang) {
  const whole = new Intl.NumberFormat(lang);
  const percent = new Intl.NumberFormat(lang, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  return {
    whole: (n: number) => whole.format(n),
    // "97.2 %": the number and its sign apart, as the line is written in both languages.
    percent: (rate: number) => `${percent.format(rate * 100)}\u00a0%`,
  };
}

const isListed = (source: SummarySource) => (source.reputation?.listed_on.length ?? 0) > 0;

/** The line the page opens with, in the reader's language. */
export function summaryLine(summary: Summary, lastDays: boolean, lang: Lang, t: Translate): string {
  const { whole, percent } = numbers(lang);
  const window = lastDays
    ? t('reports.window.last', { n: defaultDays })
    : t('reports.window.range', {
        from: shortDay(lang, summary.period.from),
        to: shortDay(lang, summary.period.to),
      });
  const { dmarc } = summary;
  if (dmarc.messages === 0 || dmarc.pass_rate === null) return t('reports.line.empty', { window });
  const failing = summary.sources.filter((source) => source.fail > 0);
  const listed = failing.filter(isListed).length;
  const passed = t('reports.line.passed', {
    n: dmarc.messages,
    rate: percent(dmarc.pass_rate),
    count: whole(dmarc.messages),
    window,
  });
  const fails =
    failing.length === 0
      ? t('reports.line.noneFailing')
      : t('reports.line.failing', { n: failing.length });
  const listing = listed > 0 ? `, ${t('reports.line.listed', { n: listed })}` : '';
  return `${passed}; ${fails}${listing}.`;
}

/** What to do about a source, by which of SPF and DKIM ever aligned for it. */
export function adviceFor(source: SummarySource): { key: MessageKey; params: Params } {
  const params = { fail: source.fail };
  if (source.fail === 0) return { key: 'reports.advice.ok', params };
  if (source.spf_aligned === 0 && source.dkim_aligned === 0)
    return { key: 'reports.advice.neither', params };
  if (source.spf_aligned === 0) return { key: 'reports.advice.spf', params };
  if (source.dkim_aligned === 0) return { key: 'reports.advice.dkim', params };
  return { key: 'reports.advice.some', params };
}

function reputationCell(site: Site, source: SummarySource, t: Translate, lang: Lang): Html {
  const { reputation } = source;
  if (reputation === null)
    return html`<span class="note">${t('reports.reputation.pending')}</span>`;
  const verdict = t(`verdict.${reputation.verdict}`);
  const text = isListed(source)
    ? t('reports.reputation.listed', {
        verdict,
        lists: reputation.listed_on.map((listing) => listing.name).join(', '),
      })
    : t('reports.reputation.clean', { verdict });
  const tone = isListed(source) ? 'status-listed' : '';
  return html`<span class="${tone}">${text}</span>${
      source.ptr ? html`<br /><span class="note">${source.ptr}</span>` : ''
    } <br /><a href="${site.root}/ip/v1/share/${reputation.token}?lang=${lang}"
      >${t('reports.reputation.open')}</a
    >`;
}

function sourcesSection(
  site: Site,
  summary: Summary,
  lang: Lang,
  t: Translate,
  number: (n: number) => string,
  percent: (rate: number) => string,
): Html {
  const shown = mattering(summary.sources, summary.dmarc.messages);
  const sources = summary.sources.filter((source) => shown.has(source.ip));
  const more = summary.sources.length - sources.length;
  return html`<section>
    <h2>${t('reports.sources')}</h2>
    <p class="note">${t('reports.sources.note', { domain: summary.domain })}</p>
    <table class="stacked sources">
      <thead>
        <tr>
          <th>${t('reports.col.source')}</th>
          <th>${t('reports.col.messages')}</th>
          <th>${t('reports.col.passed')}</th>
          <th>${t('reports.col.reputation')}</th>
          <th>${t('reports.col.todo')}</th>
        </tr>
      </thead>
      <tbody>
        ${sources.map((source) => {
          const advice = adviceFor(source);
          return html`<tr>
            <td
              data-label="${t('reports.col.source')}"
              class="${source.ip.includes(':') ? 'ipv6' : 'nowrap'}"
            >
              ${addressHtml(source.ip)}
            </td>
            <td data-label="${t('reports.col.messages')}">${number(source.messages)}</td>
            <td data-label="${t('reports.col.passed')}">
              ${percent(source.messages === 0 ? 0 : source.pass / source.messages)}
            </td>
            <td data-label="${t('reports.col.reputation')}">
              ${reputationCell(site, source, t, lang)}
            </td>
            <td data-label="${t('reports.col.todo')}">
              ${t(advice.key, { ...advice.params, domain: summary.domain })}
              ${
                isListed(source)
                  ? html`<br />${t('reports.advice.listed', { check: t('reports.reputation.check') })}`
                  : ''
              }
            </td>
          </tr>`;
        })}
      </tbody>
    </table>
    ${
      more > 0 || summary.more_sources
        ? html`<p class="note">${t('reports.sources.more', { n: more })}</p>`
        : ''
    }
  </section>`;
}

function reportersSection(
  summary: Summary,
  t: Translate,
  number: (n: number) => string,
  percent: (rate: number) => string,
): Html {
  return html`<section>
    <h2>${t('reports.reporters')}</h2>
    <p class="note">${t('reports.reporters.note')}</p>
    <table class="stacked">
      <thead>
        <tr>
          <th>${t('reports.col.reporter')}</th>
          <th>${t('reports.col.reports')}</th>
          <th>${t('reports.col.messages')}</th>
          <th>${t('reports.col.passed')}</th>
        </tr>
      </thead>
      <tbody>
        ${summary.dmarc.reporters.map(
          (reporter) =>
            html`<tr>
              <td data-label="${t('reports.col.reporter')}">${reporter.org}</td>
              <td data-label="${t('reports.col.reports')}">${number(reporter.reports)}</td>
              <td data-label="${t('reports.col.messages')}">${number(reporter.messages)}</td>
              <td data-label="${t('reports.col.passed')}">
                ${percent(reporter.messages === 0 ? 0 : reporter.pass / reporter.messages)}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

function tlsSection(summary: Summary, t: Translate, number: (n: number) => string): Html {
  const { tls } = summary;
  if (tls.reports === 0) {
    return html`<section>
      <h2>${t('reports.tls')}</h2>
      <p class="note">${t('reports.tls.none')}</p>
    </section>`;
  }
  return html`<section>
    <h2>${t('reports.tls')}</h2>
    <p>
      ${t('reports.tls.sessions', {
        success: number(tls.sessions.success),
        failure: number(tls.sessions.failure),
        reports: number(tls.reports),
      })}
    </p>
    <table class="stacked">
      <thead>
        <tr>
          <th>${t('reports.col.policy')}</th>
          <th>${t('reports.col.domain')}</th>
          <th>${t('reports.col.success')}</th>
          <th>${t('reports.col.failure')}</th>
        </tr>
      </thead>
      <tbody>
        ${tls.policies.map(
          (policy) =>
            html`<tr>
              <td data-label="${t('reports.col.policy')}">${policy.type}</td>
              <td data-label="${t('reports.col.domain')}">${policy.domain}</td>
              <td data-label="${t('reports.col.success')}">${number(policy.success)}</td>
              <td data-label="${t('reports.col.failure')}">${number(policy.failure)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${
      tls.failures.length === 0
        ? ''
        : html`<h3>${t('reports.tls.failures')}</h3>
            <table class="stacked">
              <thead>
                <tr>
                  <th>${t('reports.col.result')}</th>
                  <th>${t('reports.col.mx')}</th>
                  <th>${t('reports.col.mta')}</th>
                  <th>${t('reports.col.count')}</th>
                </tr>
              </thead>
              <tbody>
                ${tls.failures.slice(0, 20).map(
                  (failure) =>
                    html`<tr>
                      <td data-label="${t('reports.col.result')}">${failure.result_type}</td>
                      <td
                        data-label="${t('reports.col.mx')}"
                        class="${failure.receiving_mx_hostname ? '' : 'empty'}"
                      >
                        ${failure.receiving_mx_hostname ?? ''}
                      </td>
                      <td
                        data-label="${t('reports.col.mta')}"
                        class="${failure.sending_mta_ip ? '' : 'empty'}"
                      >
                        ${failure.sending_mta_ip ? addressHtml(failure.sending_mta_ip) : ''}
                      </td>
                      <td data-label="${t('reports.col.count')}">${number(failure.count)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
    }
  </section>`;
}

export function renderDashboard(page: Dashboard): Promise<string> {
  const { site, lang, t, summary } = page;
  const { whole, percent } = numbers(lang);
  const title = t('reports.title', { domain: summary.domain });
  const empty = summary.dmarc.reports === 0 && summary.tls.reports === 0;
  return renderPage({
    site,
    lang,
    t,
    title: `${title} – ${t('site.name')}`,
    description: t('reports.description', { domain: summary.domain }),
    languageHref: page.languageHref,
    content: html`<article class="reports-dashboard">
      <h1>${title}</h1>
      <p class="sentence summary-line">${summaryLine(summary, page.lastDays, lang, t)}</p>
      ${
        summary.verified
          ? ''
          : html`<p class="warning">${t('reports.unverified', { domain: summary.domain })}</p>`
      }
      ${empty ? html`<p class="note">${t('reports.empty')}</p>` : ''}
      ${dailyChart(summary.dmarc.daily, summary.period, { lang, t })}
      ${sourcesSection(site, summary, lang, t, whole, percent)}
      ${reportersSection(summary, t, whole, percent)} ${tlsSection(summary, t, whole)}
      <p class="note">
        ${t('reports.kept', {
          n: summary.retention_days,
          dmarc: whole(summary.dmarc.reports),
          tls: whole(summary.tls.reports),
        })}
      </p>
    </article>`,
  });
}
