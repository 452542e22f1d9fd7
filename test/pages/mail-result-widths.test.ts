import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lang, translator } from '../../src/i18n/index.js';
import { createCardRenderer } from '../../src/node/cards/card-render.js';
import { readCardFonts } from '../../src/node/cards/fonts.js';
import { readPageAssetSources } from '../../src/node/page-assets.js';
import { createPublicOrigin } from '../../src/http/public-origin.js';
import { preparePageAssets } from '../../src/pages/assets.js';
import { pageContentSecurityPolicy } from '../../src/pages/csp.js';
import { renderSharePage } from '../../src/pages/share-page.js';
import { createSite } from '../../src/pages/site.js';
import { renderBadge } from '../../src/share/badge.js';
import { createFontLoader } from '../../src/share/fonts.js';
import { resultTexts } from '../../src/share/result-texts.js';
import { mailPage } from '../../src/tools/mail/page.js';
import { summariseMail } from '../../src/tools/mail/summary.js';
import { type TestBrowser, launchChromium } from '../support/browser.js';
import { mailResults } from '../tools/mail/mail-results.js';

/**
 * The mail result inside the site's frame (the share page, with the real stylesheet, script and
 * Content-Security-Policy), in a real browser at a desktop's width (1280 px) and a phone's
 * (375 px), in both languages: no sideways scroll, nothing past the window's right edge, no word
 * broken in its middle. The tool's routes are not needed: a small server draws the page from a
 * stored result as the share route does.
 */

type Name = keyof typeof mailResults;

let server: Server;
let base: string;
let browser: TestBrowser;

beforeAll(async () => {
  const assets = await preparePageAssets(await readPageAssetSources());
  const site = createSite({
    basePath: '',
    publicOrigin: createPublicOrigin({
      publicUrl: 'https://rep.example.org',
      trustProxy: { mode: 'none' },
      peerAddress: () => '192.0.2.1',
    }),
    assets,
    poolMaxIps: 32,
    tokenTtlMs: 60_000,
  });
  const renderCard = createCardRenderer(createFontLoader(() => readCardFonts()));
  server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://x');
      const asset = assets.byFile.get(url.pathname.replace('/assets/', ''));
      if (asset) {
        response.writeHead(200, { 'content-type': asset.contentType });
        response.end(asset.body);
        return;
      }
      const [, name, file] = /^\/mail\/(\w+)(?:\/(card|badge\.svg))?$/.exec(url.pathname) ?? [];
      const result = mailResults[name as Name];
      if (!result) {
        response.writeHead(404).end();
        return;
      }
      const lang: Lang = url.searchParams.get('lang') === 'ru' ? 'ru' : 'en';
      const stored = result as unknown as Record<string, unknown>;
      const summary = summariseMail(stored);
      if (file === 'card') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(await renderCard(summary, lang));
        return;
      }
      if (file === 'badge.svg') {
        response.writeHead(200, { 'content-type': 'image/svg+xml' });
        response.end(renderBadge(summary, 'flat', lang));
        return;
      }
      const t = translator(lang);
      const page = await renderSharePage({
        site,
        lang,
        t,
        view: mailPage(stored, { lang, t, summary, texts: resultTexts(lang, t, new Map()) }),
        summary,
        links: {
          page: `https://rep.example.org/mail/${name}`,
          card: `https://rep.example.org/mail/${name}/card?lang=${lang}`,
          badge: `https://rep.example.org/mail/${name}/badge.svg?lang=${lang}`,
          images: {
            card: `/mail/${name}/card?lang=${lang}`,
            badge: `/mail/${name}/badge.svg?lang=${lang}`,
          },
          result: `/mail/${name}.json`,
          checkAnother: '/?tool=mail',
        },
        languageHref: (other) => `/mail/${name}?lang=${other}`,
      });
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': pageContentSecurityPolicy(),
      });
      response.end(page);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Words split over two lines other than after a hyphen or slash; `<code>` may wrap anywhere. */
async function wordsBrokenMidWord(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const broken = [];
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
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
            if (!/[-/:]/.test(match[0][i - 1])) broken.push(match[0]);
            break;
          }
          lineTop = box.top;
        }
      }
    }
    return broken;
  })()`);
}

/** Elements of the result whose box reaches past the window's right edge. */
async function pastRightEdge(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('#result *')]
    .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((node) => node.tagName + '.' + node.className + ': ' + node.textContent.slice(0, 40))`);
}

describe.each([1280, 375] as const)('the mail result at %i px', (width) => {
  describe.each(['en', 'ru'] as const)('in %s', (lang) => {
    let page: Page;
    let problems: string[];
    beforeAll(async () => {
      ({ page, problems } = await browser.page());
      await page.setViewportSize({ width, height: 800 });
    });
    afterAll(() => page.close());

    it.each(Object.keys(mailResults) as Name[])(
      'draws the %s domain readable, without a sideways scroll',
      async (name) => {
        await page.goto(`${base}/mail/${name}?lang=${lang}`);
        await page.waitForSelector('#result .mail-result');
        // The three providers' checklists and the receiving side's STARTTLS, a rule of its own.
        expect(await page.locator('section.mail-provider').count()).toBe(4);
        expect(await page.locator('table.mail-checklist tbody tr').count()).toBe(
          (['gmail', 'yahoo', 'microsoft'] as const).reduce(
            (sum, provider) => sum + mailResults[name].requirements[provider].rules.length,
            1,
          ),
        );
        // What to fix first, before them.
        expect(await page.locator('.mail-result > section').first().getAttribute('class')).toBe(
          'mail-fixes',
        );
        // On a phone the checklist is stacked rows, each cell labelled; on a desktop, a table.
        const display = await page.evaluate(
          "getComputedStyle(document.querySelector('table.mail-checklist tbody tr')).display",
        );
        expect(display).toBe(width === 375 ? 'block' : 'table-row');
        expect(await wordsBrokenMidWord(page)).toEqual([]);
        expect(await pastRightEdge(page)).toEqual([]);
        // On a desktop the MX table's host names and ciphers keep their line, and the table
        // its box (a certificate's error code breaks after an underscore).
        if (width === 1280) {
          expect(
            await page.evaluate(`(() => {
              const box = document.querySelector('table.mail-mx').closest('.table-scroll');
              return box.scrollWidth <= box.clientWidth;
            })()`),
          ).toBe(true);
          expect(
            await page.evaluate(`[...document.querySelectorAll('table.mail-mx td:nth-child(-n + 3) code')]
              .filter((code) => code.getClientRects().length > 1)
              .map((code) => code.textContent)`),
          ).toEqual([]);
        }
        const t = translator(lang);
        // The DKIM selectors' table right under the DKIM row, the BIMI row after it.
        if (mailResults[name].dkim.selectors.length > 0) {
          expect(
            await page.evaluate(`(() => {
              const table = document.querySelector('table.mail-dkim').closest('.table-scroll');
              const rows = (list) => [...list.querySelectorAll('dt')].map((dt) => dt.textContent.trim());
              return [rows(table.previousElementSibling).at(-1), rows(table.nextElementSibling)[0]];
            })()`),
          ).toEqual([t('mail.dkim'), t('mail.bimi')]);
        }
        // That this service's resolver does not validate DNSSEC is a note, not a warning about
        // the domain.
        if (mailResults[name].dane.validating === false) {
          const note = page.getByText(t('mail.dane.notValidating'));
          expect(await note.getAttribute('class')).toBe('note');
        }
        expect(
          await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
        ).toBe(true);
        // The card and badge the page shows were drawn and loaded.
        expect(
          await page.evaluate(
            '[...document.images].every((image) => image.complete && image.naturalWidth > 0)',
          ),
        ).toBe(true);
        if (process.env.UPDATE_SCREENSHOTS && name === 'failing') {
          await page.screenshot({
            path: `docs/screenshots/${width === 375 ? 'phone-' : ''}share-mail-${lang}.png`,
            fullPage: true,
          });
        }
        expect(problems).toEqual([]);
      },
    );
  });
});
