import { colours, verdictColours } from './card-theme.js';
import { h, svg } from './element.js';
import type { Element } from './element.js';
import { type Translate, translator } from '../i18n/index.js';
import { type ShareSummary, foundAddresses } from './summary.js';

/**
 * The score as a ring in the verdict's colour, the figure in its middle. Without a score (pool
 * check) the ring shows the share of listed addresses, the figure "listed/checked": a full ring
 * means every address is listed, an empty one that none is.
 */

export const ringSize = 236;
const stroke = 20;

export function ringFigures(
  summary: ShareSummary,
  t: Translate = translator('en'),
): {
  fraction: number;
  figure: string;
  caption: string;
} {
  const found = foundAddresses(summary);
  if (found !== undefined)
    return { fraction: found > 0 ? 1 : 0, figure: String(found), caption: t('card.ring.found') };
  // A mail check (or a mail watch) counts requirements, not lists: its score is its figure.
  if (summary.checked === 0 && summary.counts !== 'requirements')
    return { fraction: 0, figure: '–', caption: t('card.ring.notChecked') };
  if (summary.score !== null) {
    return {
      fraction: summary.score / 100,
      figure: String(Math.round(summary.score)),
      caption: t('card.ring.outOf100'),
    };
  }
  return {
    fraction: summary.listed / summary.checked,
    figure: `${summary.listed}/${summary.checked}`,
    caption: t('card.ring.listed'),
  };
}

export function scoreRing(summary: ShareSummary, t: Translate): Element {
  const { fraction, figure, caption } = ringFigures(summary, t);
  const centre = ringSize / 2;
  const radius = (ringSize - stroke) / 2;
  const circumference = 2 * Math.PI * radius;
  const arc = Math.min(Math.max(fraction, 0), 1) * circumference;
  const circle = { cx: centre, cy: centre, r: radius, fill: 'none', strokeWidth: stroke };
  // "100" fits the ring at 84px; a longer "12/256" steps down to stay inside it.
  const figureSize = figure.length <= 3 ? 84 : Math.floor(150 / (0.62 * figure.length));
  return h(
    'div',
    { display: 'flex', position: 'relative', width: ringSize, height: ringSize, flexShrink: 0 },
    svg(
      'svg',
      { width: ringSize, height: ringSize, viewBox: `0 0 ${ringSize} ${ringSize}` },
      svg('circle', { ...circle, stroke: colours.track }),
      // A zero-length arc with round caps would still draw a dot.
      ...(arc > 0
        ? [
            svg('circle', {
              ...circle,
              stroke: verdictColours[summary.verdict],
              strokeLinecap: 'round',
              strokeDasharray: `${arc} ${circumference}`,
              transform: `rotate(-90 ${centre} ${centre})`,
            }),
          ]
        : []),
    ),
    h(
      'div',
      {
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        position: 'absolute',
        left: 0,
        top: 0,
        width: ringSize,
        height: ringSize,
      },
      h(
        'div',
        { fontSize: figureSize, fontWeight: 700, lineHeight: 1, color: colours.ink },
        figure,
      ),
      h('div', { fontSize: 20, marginTop: 8, color: colours.muted }, caption),
    ),
  );
}
