import { html } from 'hono/html';
import type { Lang, Translate } from '../i18n/index.js';
import type { Html } from './layout.js';

/**
 * A watch's listings over time as a chart the server draws (docs/watches.md, "Chart and strip"):
 * an inline SVG step line of how many listings the target had, from the start of the window to
 * its last check, one dot per change. No script and no inline style (the pages' CSP): its colours
 * are the stylesheet's classes, its size the viewBox, scaled to the column's width (readable at
 * 360 px). Its `<title>` and `<desc>` say in words what it draws.
 */

/** From `at` on, the target had `count` listings (oldest first; the first is the window's start or earlier). */
export interface ChartStep {
  at: string;
  count: number;
}

/**
 * The chart is drawn twice, the stylesheet showing one: a phone's (360 units, its labels 13 px
 * on a 360 px column) and a wider one for a column of 40rem and more, where the phone's would
 * fill half a desktop's column or, scaled to it, draw its labels twice their size.
 */
const sizes = {
  narrow: { width: 360, height: 150, ids: 'timeline-chart' },
  wide: { width: 720, height: 170, ids: 'timeline-chart-wide' },
} as const;
type Size = (typeof sizes)[keyof typeof sizes];
const minuteMs = 60_000;
/** Below two days, the axis names times of day as well as days. */
const withTimesBelowMs = 2 * 86_400_000;

const axisDates = new Map<string, Intl.DateTimeFormat>();

/** A moment on the axis, in UTC as every time of the page: `2 Nov`, or `2 Nov, 09:41` close up. */
function axisDate(lang: Lang, ms: number, withTime: boolean): string {
  const key = `${lang} ${withTime}`;
  let format = axisDates.get(key);
  if (format === undefined) {
    // en-GB for English: "2 Nov", the day-month order the card writes too.
    format = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : lang, {
      day: 'numeric',
      month: 'short',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
      timeZone: 'UTC',
    });
    axisDates.set(key, format);
  }
  return format.format(new Date(ms));
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * The chart of `steps` from `from` to `end` (ISO instants). Steps before `from` give the count
 * the window starts with; each step within it is a change and gets a dot.
 */
export function timelineChart(
  steps: readonly ChartStep[],
  window: { from: string; end: string },
  { lang, t }: { lang: Lang; t: Translate },
): Html {
  const fromMs = Date.parse(window.from);
  // A watch just created still gets a line a minute wide rather than none.
  const endMs = Math.max(Date.parse(window.end), fromMs + minuteMs);
  const withTime = endMs - fromMs < withTimesBelowMs;
  const before = steps.filter((step) => Date.parse(step.at) <= fromMs);
  const startCount = before.at(-1)?.count ?? steps[0]?.count ?? 0;
  const changes = steps.filter((step) => Date.parse(step.at) > fromMs);
  const counts = [startCount, ...changes.map((step) => step.count)];
  const fromText = axisDate(lang, fromMs, withTime);
  const endText = axisDate(lang, endMs, withTime);
  const description = t('chart.desc', {
    from: fromText,
    to: endText,
    n: changes.length,
    max: Math.max(...counts),
    now: counts.at(-1) ?? 0,
  });
  const drawn = { fromMs, endMs, startCount, changes, top: Math.max(1, ...counts) };
  const texts = { title: t('chart.title'), axis: t('chart.axis'), description, fromText, endText };
  return html`<figure class="timeline-chart">
    ${svgOf(sizes.narrow, 'narrow', drawn, texts)} ${svgOf(sizes.wide, 'wide', drawn, texts)}
    <figcaption class="note" aria-hidden="true">${description}</figcaption>
  </figure>`;
}

interface Drawn {
  fromMs: number;
  endMs: number;
  startCount: number;
  changes: readonly ChartStep[];
  top: number;
}

interface Texts {
  title: string;
  axis: string;
  description: string;
  fromText: string;
  endText: string;
}

/** One drawing of the chart in `size`'s units. */
function svgOf(size: Size, name: keyof typeof sizes, drawn: Drawn, texts: Texts): Html {
  const { width, height, ids } = size;
  const plot = { left: 30, right: width - 10, top: 20, bottom: height - 24 };
  const { fromMs, endMs, startCount, changes, top } = drawn;
  const x = (ms: number) =>
    round(plot.left + ((ms - fromMs) / (endMs - fromMs)) * (plot.right - plot.left));
  const y = (count: number) => round(plot.bottom - (count / top) * (plot.bottom - plot.top));
  let line = `M${x(fromMs)} ${y(startCount)}`;
  for (const step of changes) line += ` H${x(Date.parse(step.at))} V${y(step.count)}`;
  line += ` H${x(endMs)}`;
  const area = `${line} V${y(0)} H${x(fromMs)} Z`;
  return html`<svg
    class="${name}"
    viewBox="0 0 ${width} ${height}"
    width="100%"
    role="img"
    aria-labelledby="${ids}-title ${ids}-desc"
    xmlns="http://www.w3.org/2000/svg"
  >
    <title id="${ids}-title">${texts.title}</title>
    <desc id="${ids}-desc">${texts.description}</desc>
    <line class="grid" x1="${plot.left}" x2="${plot.right}" y1="${y(top)}" y2="${y(top)}" />
    <line class="axis" x1="${plot.left}" x2="${plot.right}" y1="${y(0)}" y2="${y(0)}" />
    <text class="label" x="${plot.left - 6}" y="${y(top) + 4}" text-anchor="end">${top}</text>
    <text class="label" x="${plot.left - 6}" y="${y(0) + 4}" text-anchor="end">0</text>
    <text class="label" x="${plot.left}" y="13">${texts.axis}</text>
    <text class="label" x="${plot.left}" y="${height - 6}">${texts.fromText}</text>
    <text class="label" x="${plot.right}" y="${height - 6}" text-anchor="end">
      ${texts.endText}
    </text>
    <path class="area" d="${area}" />
    <path class="line" d="${line}" />
    ${changes.map(
      (step) =>
        html`<circle class="change" cx="${x(Date.parse(step.at))}" cy="${y(step.count)}" r="3" />`,
    )}
  </svg>`;
}
