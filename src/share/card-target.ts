import { colours } from './card-theme.js';
import { h } from './element.js';
import type { Element } from './element.js';
import { shortenUntil, wrapName } from './text-width.js';

/**
 * The checked name, as big as it fits: a short name is set large on one line, a longer one smaller
 * over up to three lines, and past that it is shortened in the middle (up to 253 characters do not
 * fit any readable size).
 */

interface Step {
  fontSize: number;
  lines: number;
}

const steps: readonly Step[] = [
  { fontSize: 80, lines: 1 },
  { fontSize: 64, lines: 1 },
  { fontSize: 52, lines: 1 },
  { fontSize: 44, lines: 2 },
  { fontSize: 36, lines: 3 },
];

const lineHeight = 1.15;

export function fitTarget(target: string, width: number): { fontSize: number; lines: string[] } {
  for (const step of steps) {
    const lines = wrapName(target, step.fontSize, width);
    if (lines.length <= step.lines) return { fontSize: step.fontSize, lines };
  }
  const smallest = steps[steps.length - 1]!;
  const fits = (text: string) => wrapName(text, smallest.fontSize, width).length <= smallest.lines;
  return {
    fontSize: smallest.fontSize,
    lines: wrapName(shortenUntil(target, fits), smallest.fontSize, width),
  };
}

export function targetBlock(target: string, width: number): Element {
  const { fontSize, lines } = fitTarget(target, width);
  return h(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      width,
      fontSize,
      lineHeight,
      fontWeight: 700,
      color: colours.ink,
    },
    // One box per line, as wrapped by wrapName: the line count is the one planned for.
    ...lines.map((text) => h('div', { display: 'block', whiteSpace: 'nowrap' }, text)),
  );
}
