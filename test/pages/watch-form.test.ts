import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorld } from '../../scripts/demo-world.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { type TestBrowser, launchChromium } from '../support/browser.js';
import type { PublicWatch } from '../support/responses.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * The check page's watch form in a real browser (docs/pages.md#check-page), at 1280 and 375 px,
 * in English and Russian: the intervals the service allows, in words, the service's default
 * chosen; the chat format; the e-mail address only where the service sends e-mail; what the
 * script posts, and the watch it made.
 */

const world = demoWorld(await loadZoneList());
const env = { WATCH_MIN_INTERVAL_S: '600', WATCH_INTERVAL_S: '7200', WATCH_PER_CALLER: '50' };

let plain: TestService;
let mailing: TestService;
let browser: TestBrowser;

beforeAll(async () => {
  [plain, mailing, browser] = await Promise.all([
    startTestService({ world, env }),
    startTestService({ world, env, sendsWatchEmail: true }),
    launchChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await plain?.close();
  await mailing?.close();
});

const languages = {
  en: {
    headers: {},
    intervals: [
      'every 10 minutes',
      'every 15 minutes',
      'every 30 minutes',
      'every hour',
      'every 2 hours',
      'every 3 hours',
      'every 6 hours',
      'every 12 hours',
      'every day',
      'every week',
    ],
    created: 'Watching 192.0.3.20: re-checked every 6 hours.',
    live: 'Live: re-checked every 6 hours.',
  },
  ru: {
    headers: { 'Accept-Language': 'ru-RU,ru;q=0.9' },
    intervals: [
      'каждые 10 минут',
      'каждые 15 минут',
      'каждые 30 минут',
      'каждый час',
      'каждые 2 часа',
      'каждые 3 часа',
      'каждые 6 часов',
      'каждые 12 часов',
      'каждый день',
      'каждую неделю',
    ],
    created: 'Наблюдение за 192.0.3.20 началось: проверка каждые 6 часов.',
    live: 'Вживую: проверяется каждые 6 часов.',
  },
} as const;

/** Checks the demo world's listed address, which offers the watch form under its result. */
async function checkListedAddress(page: Page, service: TestService): Promise<void> {
  await page.goto(service.url('/'));
  await page.fill('#target', '192.0.3.20');
  await page.click('#submit');
  await page.waitForSelector('#watch:not([hidden])');
}

/** The form and its page fit the window: nothing past the right edge, no sideways scroll. */
async function expectFits(page: Page): Promise<void> {
  const past = await page.evaluate(`(() => {
    const width = window.innerWidth;
    return [...document.querySelectorAll('#watch, #watch *')]
      .filter((node) => node.getBoundingClientRect().right > width + 1)
      .map((node) => node.tagName + '#' + node.id);
  })()`);
  expect(past).toEqual([]);
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(
    true,
  );
}

describe.each([1280, 375] as const)('at %i px', (width) => {
  describe.each(Object.keys(languages) as (keyof typeof languages)[])('in %s', (lang) => {
    const words = languages[lang];
    let page: Page;
    let problems: string[];

    beforeAll(async () => {
      ({ page, problems } = await browser.page());
      await page.setExtraHTTPHeaders(words.headers);
      await page.setViewportSize({ width, height: 900 });
    });
    afterAll(() => page.close());

    it('offers the allowed intervals in words, the default chosen, and posts the one picked with the format', async () => {
      await checkListedAddress(page, plain);
      const options = await page.$$eval('#watch-interval option', (nodes) =>
        nodes.map((node) => [
          (node as unknown as { value: string }).value,
          node.textContent!.trim(),
        ]),
      );
      expect(options.map(([, text]) => text)).toEqual(words.intervals);
      expect(options.map(([value]) => Number(value))).toEqual([
        600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 604_800,
      ]);
      expect(await page.inputValue('#watch-interval')).toBe('7200');
      expect(await page.$$eval('#watch-format option', (nodes) => nodes.length)).toBe(6);
      // No e-mail where the service sends none.
      expect(await page.locator('#watch-email').count()).toBe(0);
      await expectFits(page);

      const posted = page.waitForRequest((request) => request.url().endsWith('/watch/v1'));
      await page.selectOption('#watch-interval', '21600');
      await page.fill('#watch-webhook', 'https://hooks.example.com/chat');
      await page.selectOption('#watch-format', 'slack');
      await page.click('#watch-submit');
      expect((await posted).postDataJSON()).toMatchObject({
        target: '192.0.3.20',
        kind: 'ip',
        interval_s: 21_600,
        webhook_url: 'https://hooks.example.com/chat',
        webhook_format: 'slack',
      });
      await page.waitForSelector('#watch-created .watch-created');
      expect((await page.textContent('#watch-created p'))?.trim()).toBe(words.created);
      await expectFits(page);

      const href = await page.getAttribute('#watch-page', 'href');
      const id = /\/watch\/v1\/([\w-]+)\/share/.exec(href!)![1]!;
      const watch = (await (await plain.get(`/watch/v1/${id}`)).json()) as PublicWatch;
      expect(watch).toMatchObject({ interval_s: 21_600, webhook: { format: 'slack' } });
      await page.goto(href!);
      expect(await page.textContent('#result')).toContain(words.live);
      // The drawing the window's width shows: the phone's or the wide one.
      await page.waitForSelector('figure.timeline-chart svg:visible');
      await expectFits(page);
      expect(problems).toEqual([]);
    });

    it('sends no format without a webhook, and asks for an address where the service sends e-mail', async () => {
      await checkListedAddress(page, mailing);
      expect(await page.isVisible('#watch-email')).toBe(true);
      await expectFits(page);
      const posted = page.waitForRequest((request) => request.url().endsWith('/watch/v1'));
      const answered = page.waitForResponse((response) => response.url().endsWith('/watch/v1'));
      await page.selectOption('#watch-format', 'discord');
      await page.fill('#watch-email', 'postmaster@example.com');
      await page.click('#watch-submit');
      const body = (await posted).postDataJSON() as Record<string, unknown>;
      expect(body).toMatchObject({ interval_s: 7200, email: 'postmaster@example.com' });
      expect(body).not.toHaveProperty('webhook_format');
      expect(body).not.toHaveProperty('webhook_url');
      // What the service answers an address is the e-mail alerts' own matter (docs/watches.md):
      // the form's part is to ask for it and post it.
      await answered;
      expect(problems.filter((problem) => !/status of 4\d\d/.test(problem))).toEqual([]);
    });
  });
});
