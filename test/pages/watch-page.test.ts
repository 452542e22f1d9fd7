import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { createWatch } from '../tools/watch/support.js';
import { type TestBrowser, launchChromium } from '../support/browser.js';
import type { PublicWatch } from '../support/responses.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * A watch's page with a history in a real browser, at 1280 and 375 px, in English and Russian
 * (docs/pages.md, "Watch page"): the chart spans the column, drawn for the window's width with
 * labels of a reading size, and each change's verdict is a padded pill, as a result's is. The
 * history is made by the service's own timer while the fixture world lists, then delists, the
 * address.
 */

const target = '8.8.100.9';
const zoneList = await loadZoneList();
const clean = dnsblWorld(zoneList, {});
const listed = dnsblWorld(zoneList, { [target]: { 'zen.spamhaus.org': ['127.0.0.2'] } });

let service: TestService;
let browser: TestBrowser;
let id: string;

beforeAll(async () => {
  [service, browser] = await Promise.all([
    startTestService({ env: { WATCH_MIN_INTERVAL_S: '1' } }),
    launchChromium(),
  ]);
  await service.setZones(clean);
  ({ id } = await createWatch(service, { target, interval_s: 1, confirmations: 1 }));
  const changes = async (length: number) =>
    vi.waitFor(
      async () => {
        const { history } = (await (await service.get(`/watch/v1/${id}`)).json()) as PublicWatch;
        if (history.length !== length) throw new Error(`${history.length} changes so far`);
      },
      { timeout: 20_000, interval: 200 },
    );
  await service.setZones(listed);
  await changes(1);
  await service.setZones(clean);
  await changes(2);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

interface Drawn {
  /** The class of each drawing of the chart that takes room. */
  shown: string[];
  /** The shown drawing's width over its column's. */
  ratio: number;
  labelHeight: number;
  /** Each change's verdict: its left and top padding, in pixels. */
  pills: number[][];
}

async function drawn(page: Page): Promise<Drawn> {
  return (await page.evaluate(`(() => {
    const figure = document.querySelector('figure.timeline-chart');
    const shown = [...figure.querySelectorAll('svg')].filter(
      (svg) => svg.getBoundingClientRect().width > 0,
    );
    const column = figure.parentElement.getBoundingClientRect().width;
    const pills = [...document.querySelectorAll('.timeline .pill')].map((pill) => {
      const style = getComputedStyle(pill);
      return [parseFloat(style.paddingLeft), parseFloat(style.paddingTop)];
    });
    return {
      shown: shown.map((svg) => svg.getAttribute('class')),
      ratio: shown[0].getBoundingClientRect().width / column,
      labelHeight: shown[0].querySelector('.label').getBoundingClientRect().height,
      pills,
    };
  })()`)) as Drawn;
}

describe.each([1280, 375] as const)('a watch page at %i px', (width) => {
  it.each(['en', 'ru'] as const)(
    'in %s spans its column with the chart and pills its verdicts',
    async (lang) => {
      const { page, problems } = await browser.page();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(service.url(`/watch/v1/${id}/share?lang=${lang}`));
      await page.waitForSelector('figure.timeline-chart svg:visible');
      const chart = await drawn(page);
      // The phone's drawing below 40rem (640 px), the wide one above: one at a time.
      expect(chart.shown).toEqual([width >= 640 ? 'wide' : 'narrow']);
      expect(chart.ratio).toBeGreaterThan(0.95);
      // 13 px labels, as drawn on a 360 px column: neither shrunk nor doubled.
      expect(chart.labelHeight).toBeGreaterThan(11);
      expect(chart.labelHeight).toBeLessThan(22);
      // Listed, then delisted: two changes, each with its verdict padded inside its colour.
      expect(chart.pills).toHaveLength(2);
      for (const [left, top] of chart.pills) {
        expect(left).toBeGreaterThanOrEqual(8);
        expect(top).toBeGreaterThan(0);
      }
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(
        true,
      );
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
