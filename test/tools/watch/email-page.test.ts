import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { type SmtpInbox, startSmtpInbox } from '../../../fixtures/smtp-inbox.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import { type TestBrowser, launchChromium } from '../../support/browser.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createWatch } from './support.js';

/**
 * The confirmation page of a watch's e-mail in a real browser (Debian's Chromium), in English and
 * in Russian (the watch's language): the link from the message the SMTP server took opens a page
 * with a button and confirms nothing; the button POSTs, and the page that answers says the
 * address is confirmed. The unsubscribe link of an alert does the same: a page, a button, its
 * one-click POST, and a page that says it is done. No console error, so no
 * Content-Security-Policy violation either.
 */

/** The links of the messages are under PUBLIC_URL; the browser opens them on the test service. */
const publicUrl = 'https://rep.example.org';
const local = (link: string) => service.rootUrl(link.slice(publicUrl.length));

let inbox: SmtpInbox;
let service: TestService;
let browser: TestBrowser;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  [service, browser] = await Promise.all([
    startTestService({
      env: {
        SMTP_URL: inbox.url,
        ALERT_FROM: 'alerts@rep.example.org',
        PUBLIC_URL: publicUrl,
        WATCH_MIN_INTERVAL_S: '1',
      },
    }),
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
    const opened = await page.goto(local(link));
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

describe('the unsubscribe page of a watch’s alerts', () => {
  it('stops the e-mails on the button’s one-click POST only', async () => {
    const target = '8.8.100.11';
    const address = 'leaving@example.org';
    const watch = await createWatch(service, {
      target,
      email: address,
      interval_s: 1,
      confirmations: 1,
    });
    const mails = () => inbox.received.filter((found) => found.envelope.to[0] === address);
    await expect.poll(() => mails().length, { timeout: 10_000 }).toBe(1);
    const confirm = /https?:\/\/\S+\/email\/confirm\?code=\S+/.exec(mails()[0]!.text)![0];
    expect((await service.fetch(local(confirm), { method: 'POST' })).status).toBe(200);
    await service.setZones(
      dnsblWorld(await loadZoneList(), { [target]: { 'zen.spamhaus.org': ['127.0.0.2'] } }),
    );
    await expect.poll(() => mails().length, { timeout: 15_000 }).toBe(2);
    const link = mails()[1]!.headers.get('list-unsubscribe')!.slice(1, -1);
    const emailOf = async () =>
      ((await (await service.get(`/watch/v1/${watch.id}`)).json()) as { email: unknown }).email;

    const { page, problems } = await browser.page();
    expect((await page.goto(local(link)))?.status()).toBe(200);
    expect(await page.locator('#email-outcome').textContent()).toContain('stopped nothing');
    expect(await emailOf()).not.toBeNull();
    const [answer] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: 'Stop the e-mails' }).click(),
    ]);
    expect(answer?.status()).toBe(200);
    expect(await page.locator('#email-outcome').textContent()).toContain('no more e-mails');
    expect(await emailOf()).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  }, 40_000);
});
