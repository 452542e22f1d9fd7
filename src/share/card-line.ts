import { h } from './element.js';
import type { Element, Style } from './element.js';
import { shortenEnd, shortenMiddle } from './shorten.js';
import { estimateWidth, shortenUntil } from './text-width.js';

interface OneLineOptions {
  fontSize: number;
  maxWidth: number;
  /** Names lose their middle (both ends identify them), prose its end. */
  cut?: 'middle' | 'end';
  style?: Style;
}

/**
 * Text on one line at most `maxWidth` wide, shortened to fit. Not clipped by CSS (`overflow:
 * hidden`): satori draws each clip as an SVG mask, and masks took most of librsvg's time for a
 * card; the width estimate errs wide instead (see text-width.ts).
 */
export function oneLine(
  text: string,
  { fontSize, maxWidth, cut = 'middle', style = {} }: OneLineOptions,
): Element {
  const fits = (candidate: string) => estimateWidth(candidate, fontSize) <= maxWidth;
  return h(
    'div',
    { display: 'block', maxWidth, fontSize, whiteSpace: 'nowrap', flexShrink: 0, ...style },
    shortenUntil(text, fits, cut === 'middle' ? shortenMiddle : shortenEnd),
  );
}
