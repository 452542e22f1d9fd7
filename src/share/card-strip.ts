import { oneLine } from './card-line.js';
import { colours, verdictColours } from './card-theme.js';
import { h } from './element.js';
import type { Element } from './element.js';
import type { Translate } from '../i18n/index.js';
import type { DayState } from './summary.js';

/**
 * A watch's last 30 days on its live card (docs/watches.md, "Chart and strip"): one cell a day,
 * oldest on the left, red where the target was listed at some moment of the day, green where it
 * was on no list, grey before the watch began; the label says what the row is, so colour is not
 * the only reading of it.
 */

const cellWidth = 14;
const cellHeight = 22;
const cellGap = 3;
const labelGap = 12;
const fontSize = 18;

const dayColours: Record<DayState, string> = {
  listed: verdictColours.poor,
  clean: verdictColours.good,
  none: colours.track,
};

/** The strip in `width` pixels: its label, then the cells. */
export function dayStripRow(days: readonly DayState[], width: number, t: Translate): Element {
  const cellsWidth = days.length * cellWidth + Math.max(0, days.length - 1) * cellGap;
  const listed = days.filter((day) => day === 'listed').length;
  return h(
    'div',
    { display: 'flex', alignItems: 'center', gap: labelGap, marginTop: 4 },
    oneLine(`${t('card.days', { n: days.length })} · ${t('card.daysListed', { n: listed })}`, {
      fontSize,
      maxWidth: width - cellsWidth - labelGap,
      cut: 'end',
      style: { color: colours.muted },
    }),
    h(
      'div',
      { display: 'flex', gap: cellGap, flexShrink: 0 },
      ...days.map((day) =>
        h('div', {
          width: cellWidth,
          height: cellHeight,
          borderRadius: 3,
          backgroundColor: dayColours[day],
        }),
      ),
    ),
  );
}
