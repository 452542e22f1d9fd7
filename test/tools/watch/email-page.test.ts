import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../../../fixtures/smtp-inbox.js';
import { type TestBrowser, launchChromium } from '../../support/browser.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createWatch } from './support.js';

/**
 * The confirmation page of a watch's e-mail in a real browser (Debian's Chromium), in English and
 * in Russian (the watch's language): the link from the message the SMTP server took opens a page
 * with a button and confirms nothing; the button POSTs, and the page that answers says the
 * address is confirmed. No console error, so no Content-Security-Policy violation either.
 */

let inbox: SmtpInbox;
let service: TestService;
let browser: TestBrowser;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  [service, browser] = await Promise.all([
    startTestService({ env: { SMTP_URL: inbox.url, ALERT_FROM: 'alerts@rep.example.org' } }),
    launchChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await inbox?.close();
});

const words = {
  en: { button: 'Confirm e-mail alerts', before: 'confirmed nothing', after: 'Confirmed: alerts' },
  ru: {
    button: 'Подтвердить оповещения',
    before: 'ничего не подтвердило',
    after: 'Подтверждено: оповещения',
  },
} as const;

describe('the confirmation page of a watch’s e-mail', () => {
  it.each(['en', 'ru'] as const)('confirms on the button’s POST only (%s)', async (lang) => {
    const address = `browser-${lang}@example.org`;
    const watch = await createWatch(service, { target: '8.8.100.9', email: address, lang });
    const viewed = async () =>
      (
        (await (await service.get(`/watch/v1/${watch.id}`)).json()) as {
          email: { confirmed: boolean };
        }
      ).email.confirmed;
    await inbox.waitFor(lang === 'en' ? 1 : 2);
    const mail = inbox.received.find((found) => found.envelope.to[0] === address)!;
    const link = /https?:\/\/\S+\/email\/confirm\?code=\S+/.exec(mail.text)![0];

    const { page, problems } = await browser.page();
    const opened = await page.goto(link);
    expect(opened?.status()).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
    expect(await page.locator('#email-outcome').textContent()).toContain(words[lang].before);
    expect(await page.locator('#email-outcome').textContent()).toContain(
      address.replace(/^(.).*@/, '$1***@'),
    );
    expect(await viewed()).toBe(false);

    const [answer] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: words[lang].button }).click(),
    ]);
    expect(answer?.request().method()).toBe('POST');
    expect(answer?.status()).toBe(200);
    expect(await page.locator('#email-outcome').textContent()).toContain(words[lang].after);
    expect(await page.locator('form').count()).toBe(0);
    expect(await viewed()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
