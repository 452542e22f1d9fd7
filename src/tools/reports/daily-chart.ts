import { html } from 'hono/html';
import type { Lang, Translate } from '../../i18n/index.js';
import type { Html } from '../../pages/index.js';
import type { Period } from '../../reports/index.js';

/**
 * The dashboard's daily chart (docs/reports.md, "The dashboard"): one bar a day of the period,
 * the messages that passed DMARC at the bottom and those that failed stacked on them (a bar per
 * few days past `maxBars` days), drawn by the server as an inline SVG, as the watch timeline is
 * (src/pages/timeline-chart.ts): no script and no inline style (the pages' CSP), colours from the
 * stylesheet's classes, its size the viewBox, scaled to the column's width. Its `<title>` and `<desc>` say in words what it draws.
 */

const width = 360;
const height = 150;
const plot = { left: 34, right: width - 8, top: 20, bottom: height - 24 };
const dayMs = 86_400_000;

const round = (value: number) => Math.round(value * 10) / 10;

/** Every day of the period, in order, with the daily counts where there are some. */
export function everyDay(
  daily: readonly { date: string; pass: number; fail: number }[],
  period: Period,
): { date: string; pass: number; fail: number }[] {
  const counted = new Map(daily.map((day) => [day.date, day]));
  const days = [];
  const last = Date.parse(`${period.to}T00:00:00Z`);
  for (let ms = Date.parse(`${period.from}T00:00:00Z`); ms <= last; ms += dayMs) {
    const date = new Date(ms).toISOString().slice(0, 10);
    days.push(counted.get(date) ?? { date, pass: 0, fail: 0 });
  }
  return days;
}

const axisDates = new Map<Lang, Intl.DateTimeFormat>();

/** A day on the axis, `2 Jun`: en-GB's day-month order, as the watch chart writes it. */
export function shortDay(lang: Lang, date: string): string {
  let format = axisDates.get(lang);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : lang, {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    axisDates.set(lang, format);
  }
  return format.format(new Date(`${date}T00:00:00Z`));
}

/** The most bars drawn: a longer period has a bar per few days, so the chart stays light. */
export const maxBars = 120;

/** The days in bars of `size` consecutive days each, the counts summed. */
function bucketed<Day extends { pass: number; fail: number }>(days: readonly Day[], size: number) {
  const bars: { pass: number; fail: number }[] = [];
  for (let start = 0; start < days.length; start += size) {
    const group = days.slice(start, start + size);
    bars.push({
      pass: group.reduce((sum, day) => sum + day.pass, 0),
      fail: group.reduce((sum, day) => sum + day.fail, 0),
    });
  }
  return bars;
}

export function dailyChart(
  daily: readonly { date: string; pass: number; fail: number }[],
  period: Period,
  { lang, t }: { lang: Lang; t: Translate },
): Html {
  const days = everyDay(daily, period);
  const bars = bucketed(days, Math.ceil(days.length / maxBars));
  const top = Math.max(1, ...bars.map((day) => day.pass + day.fail));
  const slot = (plot.right - plot.left) / bars.length;
  // A gap between bars while they are wide enough to show one.
  const bar = round(slot > 3 ? slot * 0.8 : slot);
  const y = (count: number) => round(plot.bottom - (count / top) * (plot.bottom - plot.top));
  const from = shortDay(lang, period.from);
  const to = shortDay(lang, period.to);
  const number = new Intl.NumberFormat(lang);
  const description = t('reports.chart.desc', {
    n: days.length,
    from,
    to,
    pass: number.format(days.reduce((sum, day) => sum + day.pass, 0)),
    fail: number.format(days.reduce((sum, day) => sum + day.fail, 0)),
    max: number.format(Math.max(...days.map((day) => day.pass + day.fail))),
  });
  return html`<figure class="daily-chart">
    <svg
      viewBox="0 0 ${width} ${height}"
      width="100%"
      role="img"
      aria-labelledby="daily-chart-title daily-chart-desc"
      xmlns="http://www.w3.org/2000/svg"
    >
      <title id="daily-chart-title">${t('reports.chart.title')}</title>
      <desc id="daily-chart-desc">${description}</desc>
      <line class="grid" x1="${plot.left}" x2="${plot.right}" y1="${y(top)}" y2="${y(top)}" />
      <text class="label" x="${plot.left - 4}" y="${y(top) + 4}" text-anchor="end">
        ${number.format(top)}
      </text>
      <text class="label" x="${plot.left - 4}" y="${y(0) + 4}" text-anchor="end">0</text>
      <rect class="pass" x="${plot.left}" y="4" width="10" height="10" />
      <text class="label" x="${plot.left + 14}" y="13">${t('reports.chart.pass')}</text>
      <rect class="fail" x="${plot.left + 90}" y="4" width="10" height="10" />
      <text class="label" x="${plot.left + 104}" y="13">${t('reports.chart.fail')}</text>
      ${bars.map((day, index) => {
        const x = round(plot.left + index * slot);
        const passTop = y(day.pass);
        const failTop = y(day.pass + day.fail);
        return html`${
          day.pass > 0
            ? html`<rect
                class="pass"
                x="${x}"
                y="${passTop}"
                width="${bar}"
                height="${round(y(0) - passTop)}"
              />`
            : ''
        }${
          day.fail > 0
            ? html`<rect
                class="fail"
                x="${x}"
                y="${failTop}"
                width="${bar}"
                height="${round(passTop - failTop)}"
              />`
            : ''
        }`;
      })}
      <line class="axis" x1="${plot.left}" x2="${plot.right}" y1="${y(0)}" y2="${y(0)}" />
      <text class="label" x="${plot.left}" y="${height - 6}">${from}</text>
      <text class="label" x="${plot.right}" y="${height - 6}" text-anchor="end">${to}</text>
    </svg>
    <figcaption class="note" aria-hidden="true">${description}</figcaption>
  </figure>`;
}
