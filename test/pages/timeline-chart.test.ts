import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/index.js';
import { timelineChart } from '../../src/pages/index.js';

/** src/pages/timeline-chart.ts: the window, the dots, the words. */

const en = { lang: 'en' as const, t: translator('en') };

async function draw(...args: Parameters<typeof timelineChart>): Promise<string> {
  return String(await timelineChart(...args));
}

describe('timelineChart', () => {
  it('starts the window at the count the steps before it left, and dots only the changes in it', async () => {
    const steps = [
      { at: '2026-09-01T00:00:00.000Z', count: 0 },
      { at: '2026-09-15T00:00:00.000Z', count: 3 },
      { at: '2026-11-10T00:00:00.000Z', count: 1 },
    ];
    const svg = await draw(
      steps,
      { from: '2026-10-31T00:00:00.000Z', end: '2026-11-30T00:00:00.000Z' },
      en,
    );
    // Drawn twice, the phone's and the wide one: one dot in each.
    expect(svg.match(/<circle\s+class="change"/g)).toHaveLength(2);
    expect(svg.match(/<svg\s+class="(narrow|wide)"/g)).toEqual([
      '<svg\n    class="narrow"',
      '<svg\n    class="wide"',
    ]);
    // 3 lists at the start of the window, the top of the axis; 10 days of 30 on, down to 1.
    expect(/<path class="line" d="([^"]+)"/.exec(svg)![1]).toBe('M30 20 H136.7 V90.7 H350');
    expect(svg).toContain('>3</text>');
    expect(svg).toContain('From 31 Oct to 30 Nov: 1 change; most listings at once: 3; now: 1.');
  });

  it('names times of day on a window shorter than two days, in UTC', async () => {
    const svg = await draw(
      [{ at: '2026-11-30T08:00:00.000Z', count: 0 }],
      { from: '2026-11-30T08:00:00.000Z', end: '2026-11-30T09:41:00.000Z' },
      { lang: 'ru', t: translator('ru') },
    );
    expect(svg).toContain('30 нояб., 08:00');
    expect(svg).toContain('30 нояб., 09:41');
    expect(svg).toContain('0 изменений');
  });
});
