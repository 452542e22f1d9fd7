import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBrowser, launchChromium } from '../../support/browser.js';
import { startTestService, type TestService } from '../../support/service.js';
import {
  aggregateXml,
  type CreatedInbox,
  createInbox,
  gzipped,
  type Row,
  send,
  tlsJson,
  upload,
} from './support.js';

/**
 * The dashboard in Chromium (docs/reports.md, "The dashboard"), at a desktop's width (1280 px) and
 * a phone's (375 px), in English and Russian, over a month of reports with a failing source on a
 * blocklist: the summary line first, the chart drawn, no sideways scroll, no CSP violation, and
 * the same page without its script.
 */

const domain = 'dashboard-fixture.net';
const listed = '8.8.100.66';
const now = new Date('2025-06-30T12:00:00Z');
const sources: Row[] = [
  { ip: '8.8.100.20', count: 400, dkim: true, spf: true },
  { ip: '8.8.100.21', count: 30, dkim: true },
  { ip: listed, count: 5, disposition: 'quarantine' },
  { ip: '2a00:1450:4000::25', count: 3, spf: true, headerFrom: `news.${domain}` },
];
const days = Array.from(
  { length: 30 },
  (_, index) => `2025-06-${String(index + 1).padStart(2, '0')}`,
);
const reporters = ['google.com', 'Outlook.com'];

let service: TestService;
let browser: TestBrowser;
let inbox: CreatedInbox;

beforeAll(async () => {
  [service, browser] = await Promise.all([
    startTestService({
      now,
      listings: { [listed]: { 'zen.spamhaus.org': ['127.0.0.2'] } },
      env: { REPORTS_ADDRESS: 'dmarc@reports.example.org' },
    }),
    launchChromium(),
  ]);
  inbox = await createInbox(service, { domain });
  for (const date of days) {
    for (const org of reporters) {
      const xml = aggregateXml({ org, reportId: `${org}-${date}`, domain, date, rows: sources });
      expect((await upload(service, inbox, gzipped(xml), 'application/gzip')).status).toBe(201);
    }
    const tls = tlsJson({
      org: 'google.com',
      reportId: `tls-${date}`,
      domain,
      date,
      success: 800,
      failure: 2,
    });
    expect((await upload(service, inbox, tls, 'application/tlsrpt+json')).status).toBe(201);
  }
  // The sources' IP checks run in the background: asked until the listed one is known.
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await send(service, 'GET', `/reports/v1/${inbox.id}`, { key: inbox.key });
    const summary = (await response.json()) as { sources: { reputation: unknown }[] };
    if (summary.sources.every((source) => source.reputation !== null)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** What the page must open with, counted from the reports above. */
function expectedLine(lang: 'en' | 'ru'): string {
  const perDay = reporters.length;
  const messages = sources.reduce((sum, row) => sum + row.count, 0) * perDay * days.length;
  const pass =
    sources.filter((row) => row.dkim || row.spf).reduce((sum, row) => sum + row.count, 0) *
    perDay *
    days.length;
  const percent = new Intl.NumberFormat(lang, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format((Math.round((pass / messages) * 10_000) / 10_000) * 100);
  const count = new Intl.NumberFormat(lang).format(messages);
  return lang === 'en'
    ? `${percent}\u00a0% of ${count} messages passed DMARC in the last 30 days; 1 source fails, 1 of them is listed.`
    : `${percent}\u00a0% из ${count} сообщений прошли DMARC за последние 30 дней; 1 источник не проходит, 1 из них в чёрном списке.`;
}

const viewPath = () => new URL(inbox.view_url).pathname;

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(
    true,
  );
}

describe.each([1280, 375] as const)('at %i px', (width) => {
  describe.each(['en', 'ru'] as const)('in %s', (lang) => {
    let page: Page;
    let problems: string[];
    beforeAll(async () => {
      ({ page, problems } = await browser.page());
      await page.setViewportSize({ width, height: 900 });
    });
    afterAll(() => page.close());

    it('opens on the summary line, then the chart, the sources, reporters and TLS', async () => {
      const response = await page.goto(
        `${service.url('')}${viewPath().slice('/tools/ip-reputation'.length)}?lang=${lang}`,
      );
      expect(response?.status()).toBe(200);
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      // The first thing below the title is the line.
      const first = page.locator('article.reports-dashboard > :nth-child(2)');
      expect(await first.getAttribute('class')).toContain('summary-line');
      expect((await first.textContent())?.trim()).toBe(expectedLine(lang));
      // The chart: a bar of each kind, and its words for a screen reader.
      expect(await page.locator('figure.daily-chart svg rect.pass').count()).toBeGreaterThan(25);
      expect(await page.locator('figure.daily-chart svg rect.fail').count()).toBeGreaterThan(25);
      expect(await page.locator('figure.daily-chart svg desc').textContent()).toMatch(/30/);
      // The listed source, with its listing and what to do.
      const row = page.locator('table.sources tbody tr', { hasText: listed });
      expect(await row.textContent()).toMatch(
        lang === 'en' ? /listed on .*Spamhaus/ : /в списках: .*Spamhaus/,
      );
      expect(await row.textContent()).toMatch(
        lang === 'en' ? /Neither SPF nor DKIM/ : /ни SPF, ни DKIM/,
      );
      expect(await page.locator('table.sources tbody tr').count()).toBe(sources.length);
      await expectNoSidewaysScroll(page);
      expect(problems).toEqual([]);
    });

    it('needs no script: the same line and chart with the page script refused', async () => {
      const blocked = await browser.page();
      await blocked.page.setViewportSize({ width, height: 900 });
      await blocked.page.route('**/assets/*.js', (route) => route.abort());
      await blocked.page.goto(
        `${service.url('')}${viewPath().slice('/tools/ip-reputation'.length)}?lang=${lang}`,
      );
      expect((await blocked.page.locator('.summary-line').textContent())?.trim()).toBe(
        expectedLine(lang),
      );
      expect(await blocked.page.locator('figure.daily-chart svg rect').count()).toBeGreaterThan(50);
      await expectNoSidewaysScroll(blocked.page);
      await blocked.page.close();
    });
  });
});

describe('the dashboard’s link', () => {
  it('is a 404 page for an unknown token, in the browser’s language', async () => {
    const { page } = await browser.page();
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'ru' });
    const response = await page.goto(service.url('/reports/v1/view/AAAAAAAAAAAAAAAAAAAAAA'));
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    await page.close();
  });

  it('follows the browser’s language, else the inbox’s', async () => {
    const russian = await createInbox(service, { domain, lang: 'ru' });
    const path = new URL(russian.view_url).pathname.slice('/tools/ip-reputation'.length);
    const plain = await service.get(path, { 'Accept-Language': 'x-klingon' });
    expect(await plain.text()).toMatch(/<html lang="ru"/);
    const english = await service.get(path, { 'Accept-Language': 'en-GB,en;q=0.8' });
    expect(await english.text()).toMatch(/<html lang="en"/);
    expect(english.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(english.headers.get('cache-control')).toBe('no-store');
  });
});
