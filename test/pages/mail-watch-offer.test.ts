import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/index.js';
import { type TestBrowser, launchChromium } from '../support/browser.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * The check page's offer under a mail result, in a real browser (docs/pages.md, "Watch this
 * address"): "Watch this domain's mail" in the page's language, whose form creates a watch of
 * kind mail for the domain just checked and shows its live page. The MX host has a public
 * address, which the tests never probe: its SMTP reads not probed, the DNS parts answer.
 */

const domain = 'offer-mail.net';
let service: TestService;
let browser: TestBrowser;

beforeAll(async () => {
  [service, browser] = await Promise.all([
    startTestService({
      zones: [
        {
          origin: domain,
          records: {
            [domain]: { TXT: ['v=spf1 -all'], MX: [{ exchange: `mx.${domain}`, priority: 10 }] },
            [`mx.${domain}`]: { A: ['185.50.0.25'] },
            [`_dmarc.${domain}`]: { TXT: ['v=DMARC1; p=reject'] },
          },
        },
      ],
      env: { SMTP_TIMEOUT_MS: '1000', CHECK_DEADLINE_MS: '3000' },
    }),
    launchChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe.each([
  ['en', {}, 'Watch this domain’s mail'],
  ['ru', { 'accept-language': 'ru' }, 'Следить за почтой этого домена'],
] as const)('the check page in %s', (lang, headers, offer) => {
  it('offers to watch the mail setup of the domain checked, and creates a mail watch', async () => {
    const { page, problems } = await browser.page();
    try {
      await page.setExtraHTTPHeaders(headers);
      await page.goto(service.url('/'));
      await page.waitForSelector('#quota:not(:empty)');
      expect(await page.isVisible('#watch')).toBe(false);
      await page.check('input[name=tool][value=mail]');
      await page.fill('#target', domain);
      await page.click('#submit');
      await page.waitForSelector('#watch:not([hidden])');
      expect((await page.textContent('#watch-title'))?.trim()).toBe(offer);
      // It promises what a mail watch tells of: the rules and servers, not listings.
      const t = translator(lang);
      expect((await page.textContent('#watch-hint'))?.trim()).toBe(t('watch.offer.hint.mail'));
      expect(await page.textContent('#watch-hint')).not.toContain(
        lang === 'en' ? 'listing' : 'внесении в список',
      );
      await page.click('#watch-submit');
      await page.waitForSelector('#watch-created .watch-created');
      const href = await page.getAttribute('#watch-page', 'href');
      expect(href).toMatch(new RegExp(`/watch/v1/[\\w-]+/share\\?lang=${lang}$`));
      const id = /\/watch\/v1\/([\w-]+)\/share/.exec(href!)![1]!;
      const watch = (await (await service.get(`/watch/v1/${id}`)).json()) as {
        kind: string;
        target: string;
      };
      expect(watch).toMatchObject({ kind: 'mail', target: domain });
      // Its page is named for the tool chosen, and shows the rules it follows.
      await page.goto(service.url(`/watch/v1/${id}/share?lang=${lang}`));
      expect(await page.title()).toContain(`${t('tool.watch.mail')} ${domain}`);
      expect(await page.locator('table[data-watched=rules] tr[data-rule]').count()).toBe(11);
      expect(
        await page.locator('table[data-watched=rules] tr[data-rule=inbound_tls]').count(),
      ).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
