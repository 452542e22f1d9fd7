import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookRequest } from '../../src/watch/alerts/index.js';
import { type TestBrowser, launchChromium } from '../support/browser.js';
import type { ChatFormat } from '../support/chat-apps.js';
import { previewHtml } from '../support/chat-previews.js';
import { alertEvent, pageUrl, zenListing } from './alerts-events.js';

/**
 * Each app's message drawn in Chromium as a preview of how the app shows it
 * (test/support/chat-previews.ts), in English and Russian (docs/watches.md, "Chat formats"): what
 * a reader sees holds what changed, since when, what to do now and the links by name, and a list's
 * hostile words are shown as written, with no link and no mention drawn from them.
 */

const page = pageUrl;
const hostile = '<!channel> @everyone <@123> [x](https://evil.example/) <b>bold</b> &amp;';
const listed = alertEvent('watch.listed', {
  added: [{ ...zenListing, meaning: hostile }],
  listed_on: [{ zone: zenListing.zone, name: zenListing.name }],
});

const words = {
  en: {
    title: '192.0.2.7 is newly listed on Spamhaus ZEN',
    since: 'listed since November 27, 2026',
    action: 'What to do now',
    delist: 'delisting page',
    page: 'Watch page',
  },
  ru: {
    title: '192.0.2.7: новое попадание в Spamhaus ZEN',
    since: 'в списке с 27 ноября 2026',
    action: 'Что делать',
    delist: 'страница исключения',
    page: 'Страница наблюдения',
  },
} as const;

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

const formats: readonly ChatFormat[] = ['slack', 'discord', 'telegram', 'ntfy'];

describe.each(formats)('%s, drawn in a browser', (format) => {
  it.each(['en', 'ru'] as const)(
    'shows the listing in %s: the title, since when, what to do, the links by name, the list’s words as written',
    async (lang) => {
      const request = webhookRequest({
        format,
        body: JSON.stringify(listed),
        watch: { lang },
        url: 'https://api.telegram.org/bot1:x/sendMessage?chat_id=-100123',
        state: undefined,
      });
      const { page: tab, problems } = await browser.page();
      try {
        await tab.setViewportSize({ width: 375, height: 800 });
        await tab.setContent(previewHtml(format, request));
        const card = tab.locator('article');
        const shown = await card.innerText();
        const expected = words[lang];
        expect(await tab.locator('h1').innerText()).toBe(expected.title);
        expect(shown).toContain(expected.since);
        if (format !== 'ntfy') expect(shown).toContain(expected.action);
        // The list's words, as written: no tag, no link, no mention drawn from them.
        expect(shown).toContain(hostile);
        expect(await tab.locator('.mention').count()).toBe(0);
        expect(await card.locator('b', { hasText: 'bold' }).count()).toBe(0);
        const anchors = await Promise.all(
          (await card.locator('a').all()).map(async (link) => ({
            text: await link.innerText(),
            href: await link.getAttribute('href'),
          })),
        );
        expect(anchors.map((anchor) => anchor.href)).not.toContain('https://evil.example/');
        expect(anchors).toContainEqual(
          format === 'discord'
            ? { text: expected.title, href: page }
            : { text: expected.page, href: page },
        );
        if (format !== 'ntfy') {
          expect(anchors).toContainEqual({
            text: expected.delist,
            href: 'https://check.spamhaus.org/',
          });
        }
        // The card fits a phone's width: nothing runs off its side.
        const overflow = await card.evaluate((node) => node.scrollWidth - node.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        if (format === 'discord') {
          // The embed's bar in the verdict's colour (poor: the cards' red).
          expect(
            await tab.evaluate(
              "getComputedStyle(document.querySelector('article')).borderLeftColor",
            ),
          ).toBe('rgb(220, 38, 38)');
        }
        expect(problems).toEqual([]);
      } finally {
        await tab.close();
      }
    },
    30_000,
  );
});
