import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorld } from '../../scripts/demo-world.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { keyedCounts } from '../../fixtures/keyless-lists.js';
import { type TestBrowser, launchChromium } from '../support/browser.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * The pool result and the lists page at a desktop's width (1280 px) and a phone's (375 px), in a
 * real browser over the demo DNS world, in both languages: no word broken in its middle, no
 * sideways scrolling, no text set in columns inside the result, and a page no taller than its
 * content needs (the bounds are per row; docs/pages.md says where they come from).
 */

let service: TestService;
let browser: TestBrowser;

beforeAll(async () => {
  [service, browser] = await Promise.all([
    startTestService({
      world: demoWorld(await loadZoneList()),
      env: (dns) => ({
        POOL_NS_PORT: String(dns.port),
        POOL_NS_ALLOW_NON_PUBLIC: 'true',
        // Twelve addresses at once: room for a busy machine.
        CHECK_DEADLINE_MS: '4000',
      }),
    }),
    launchChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/**
 * The words of `selector` that the browser split over two lines somewhere other than after a
 * hyphen or a slash ("Spamhau|s"). Each visible character's box is measured: a word whose
 * characters sit on two lines was broken. Code blocks (share snippets, which wrap anywhere by
 * design) are left out.
 */
async function wordsBrokenMidWord(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(`(() => {
    const broken = [];
    for (const root of document.querySelectorAll(${JSON.stringify(selector)})) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.closest('pre, code, script, style')) continue;
        for (const match of node.textContent.matchAll(/\\S+/g)) {
          const range = document.createRange();
          let lineTop;
          for (let i = 0; i < match[0].length; i++) {
            range.setStart(node, match.index + i);
            range.setEnd(node, match.index + i + 1);
            const box = range.getBoundingClientRect();
            if (box.width === 0 && box.height === 0) continue;
            if (lineTop !== undefined && box.top > lineTop + box.height / 2) {
              if (!/[-/]/.test(match[0][i - 1])) broken.push(match[0]);
              break;
            }
            lineTop = box.top;
          }
        }
      }
    }
    return broken;
  })()`);
}

/** Elements of `selector` (and below) laid out in columns. */
async function inColumns(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(`(() => {
    const root = document.querySelector(${JSON.stringify(selector)});
    return [root, ...root.querySelectorAll('*')]
      .filter((node) => {
        const style = getComputedStyle(node);
        return style.columnCount !== 'auto' || style.columnWidth !== 'auto';
      })
      .map((node) => node.tagName + '.' + node.className);
  })()`);
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(
    true,
  );
}

const height = (page: Page, selector: string): Promise<number> =>
  page.evaluate(
    `document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect().height`,
  );

/**
 * Height bounds, from the rows each page draws: at 1280 px an address or a list is one table row
 * of one or two lines; at 375 px a row is stacked into a block of labelled lines (three to five,
 * with the reason of a list that needs attention). The fixed parts (verdict, next steps, share
 * links; the summary) are below `base`.
 */
const bounds = {
  1280: { base: 700, perAddress: 50, perList: 90 },
  375: { base: 1000, perAddress: 160, perList: 170 },
} as const;

/** The address lists that wait for a key this service was not given: never asked. */
const needKey = (await keyedCounts()).ipv4;

const languages = {
  en: { headers: {}, needKey: `${needKey} need a key`, unanswered: 'did not answer' },
  ru: {
    headers: { 'Accept-Language': 'ru-RU,ru;q=0.9' },
    needKey: `${needKey} ждут ключа`,
    unanswered: 'не ответил',
  },
} as const;

describe.each([1280, 375] as const)('at %i px', (width) => {
  const bound = bounds[width];

  describe.each(Object.keys(languages) as (keyof typeof languages)[])('in %s', (lang) => {
    let page: Page;
    let problems: string[];
    beforeAll(async () => {
      ({ page, problems } = await browser.page());
      await page.setExtraHTTPHeaders(languages[lang].headers);
      await page.setViewportSize({ width, height: 800 });
    });
    afterAll(() => page.close());

    it('shows a pool check in one column, without a word broken or a sideways scroll', async () => {
      await page.goto(service.url('/'));
      await page.check('input[name=tool][value=pool]');
      await page.fill('#target', 'pool.demo-sender.com');
      await page.click('#submit');
      await page.waitForSelector('#outcome .outcome [data-verdict]');
      await page.click('#pick-all');
      await page.click('#check-selected');
      const result = page.locator('.pool-check .outcome');
      await result.waitFor();
      const addresses = await result.locator('tbody tr').count();
      expect(addresses).toBe(12);
      // Each address's lists not counted, as the headline counts them: waiting for a key, not
      // "did not answer" (they were never asked).
      const notCounted = await result
        .locator('tbody tr td:last-child')
        .evaluateAll((cells) => cells.map((cell) => cell.textContent?.trim()));
      expect(notCounted).toEqual(Array(12).fill(languages[lang].needKey));
      expect(await result.textContent()).not.toContain(languages[lang].unanswered);
      // "What to do next" and every other part of the result: one column, whatever the width.
      expect(await result.locator('.next-steps').count()).toBe(1);
      expect(await inColumns(page, '.pool-check')).toEqual([]);
      expect(await wordsBrokenMidWord(page, 'main')).toEqual([]);
      await expectNoSidewaysScroll(page);
      expect(await height(page, '.pool-check .outcome')).toBeLessThan(
        bound.base + addresses * bound.perAddress,
      );
      expect(problems).toEqual([]);
    });

    it('opens the lists page on a summary, its lists grouped, compact and unbroken', async () => {
      await page.goto(service.url('/lists'));
      const summary = await page.textContent('main .lists-summary');
      const lists = await page.locator('table.lists-table tbody tr').count();
      expect(summary).toMatch(lang === 'en' ? `${lists} lists: ` : `${lists} списк`);
      // The answering lists start folded: the page opens on the summary and what needs the operator.
      expect(await page.locator('details.list-group[open]').count()).toBeLessThan(
        await page.locator('details.list-group').count(),
      );
      const folded = await page.evaluate('document.documentElement.scrollHeight');
      expect(folded).toBeLessThan(bound.base + 10 * bound.perList);
      // Every group open: still a row a list.
      await page.evaluate(
        "document.querySelectorAll('details.list-group').forEach((group) => (group.open = true))",
      );
      expect(await page.evaluate('document.documentElement.scrollHeight')).toBeLessThan(
        bound.base + lists * bound.perList,
      );
      expect(await wordsBrokenMidWord(page, 'main')).toEqual([]);
      await expectNoSidewaysScroll(page);
      // Times as the other pages write them, never ISO 8601 (the JSON keeps that).
      await page.evaluate(
        "document.querySelectorAll('details.list-about').forEach((about) => (about.open = true))",
      );
      const text = (await page.textContent('main')) ?? '';
      expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
      expect(text).toMatch(
        lang === 'en' ? /\d{4} at \d+:\d\d [AP]M UTC/ : / \d{4} г\. в \d+:\d\d UTC/,
      );
      expect(await wordsBrokenMidWord(page, 'main')).toEqual([]);
      await expectNoSidewaysScroll(page);
      expect(problems).toEqual([]);
    });
  });
});
