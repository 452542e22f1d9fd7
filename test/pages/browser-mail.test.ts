import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Lang, translator } from '../../src/i18n/index.js';
import { demoMail } from '../../scripts/demo-world.js';
import { type TestBrowser, launchChromium } from '../support/browser.js';
import { startDemoMailService } from '../support/demo-mail-service.js';
import { operatorHeaders, type TestService } from '../support/service.js';

/**
 * The check page posting a mail check in a real browser (Debian's Chromium), against the real
 * app over the demo world's mail domain: its MX hosts are real SMTP servers on 127.0.0.2 (with
 * STARTTLS, on a certificate of the run's test CA) and 127.0.0.3 (without), its MTA-STS policy a
 * real HTTPS server on 127.0.0.4 (fixtures/mail-world.ts, started as `npm run demo` starts them),
 * reached because PROBE_ALLOW_NETWORKS allows 127.0.0.0/8 and the page sends OPERATOR_TOKEN. What to fix first must come first,
 * then each provider's verdict with the rules not visible from outside, and the receiving side's
 * STARTTLS as a rule of its own, in English and Russian, at a desktop's and a phone's width, with
 * no sideways scroll and no console error (a CSP violation included).
 * Beside test/pages/browser.test.ts, whose service has no mail world.
 */

let service: TestService;
let browser: TestBrowser;

beforeAll(async () => {
  [service, browser] = await Promise.all([
    startDemoMailService(inject('mailCa')),
    launchChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/**
 * What the demo's mail domain must read as: every provider's rules met but for what cannot be
 * seen from outside, and mx2's missing STARTTLS a finding of its own (no provider requires it),
 * first among the fixes; the score and its verdict agree.
 */
const unseen = { gmail: 4, yahoo: 3, microsoft: 1 } as const;

const headers: Record<Lang, Record<string, string>> = {
  en: {},
  ru: { 'Accept-Language': 'ru-RU,ru;q=0.9,en;q=0.5' },
};

describe.each([1280, 375] as const)('a mail check from the check page at %i px', (width) => {
  describe.each(['en', 'ru'] as const)('in %s', (lang) => {
    const t = translator(lang);
    let page: Page;
    let problems: string[];

    beforeAll(async () => {
      ({ page, problems } = await browser.page());
      // The operator's page: only checks sent with OPERATOR_TOKEN probe the loopback servers.
      await page.setExtraHTTPHeaders({ ...headers[lang], ...operatorHeaders });
      await page.setViewportSize({ width, height: 900 });
    });
    afterAll(() => page.close());

    it('shows the fixes first, each provider met but for the rules not visible, and the backup MX’s STARTTLS as a finding of its own', async () => {
      await page.goto(service.url('/'));
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      await page.waitForSelector('#quota:not(:empty)');
      // The DKIM selector field the advice refers to is the mail tool's own.
      expect(await page.isVisible('#dkim-selectors')).toBe(false);
      await page.check('input[name=tool][value=mail]');
      expect(await page.isVisible('#dkim-selectors')).toBe(true);
      await page.fill('#target', demoMail.domain);
      await page.fill('#dkim-selectors', 'google, s2024');
      const posted = page.waitForRequest((request) => request.method() === 'POST');
      await page.click('#submit');
      expect((await posted).postDataJSON()).toMatchObject({
        domain: demoMail.domain,
        dkim_selectors: ['google', 's2024'],
      });
      await page.waitForSelector('#outcome .outcome .mail-result');
      const result = page.locator('#outcome .outcome').first();

      // One verdict, one colour: good beside 90/100.
      expect(await result.locator('.summary .pill').getAttribute('class')).toContain(
        'verdict-good',
      );
      expect(await result.locator('.summary .score').textContent()).toContain('90');

      // What to fix first comes first, before the providers' checklists, and on screen.
      expect(await result.locator('.mail-result h2').first().textContent()).toBe(t('mail.fixes'));
      const fixes = result.locator('section.mail-fixes');
      const first = fixes.locator('li').first();
      expect(await first.getAttribute('data-code')).toBe('inbound_starttls');
      const text = ((await first.textContent()) ?? '').replace(/\s+/g, ' ');
      expect(text).toContain(demoMail.mxPlain.host);
      expect(text).toContain(t('mail.fix.inbound_starttls'));
      const fixesBox = await fixes.boundingBox();
      const checklistBox = await result.locator('section.mail-provider').first().boundingBox();
      expect(fixesBox!.y).toBeLessThan(checklistBox!.y);
      await fixes.scrollIntoViewIfNeeded();
      expect(await first.isVisible()).toBe(true);

      for (const [provider, count] of Object.entries(unseen)) {
        const section = result.locator(`section.mail-provider[data-provider=${provider}]`);
        const pill = section.locator('h3 .pill');
        expect(await pill.getAttribute('class')).toContain('verdict-good');
        expect((await pill.textContent())?.trim()).toBe(
          `${t('mail.verdict.pass')}, ${t('mail.verdict.unseen', { n: count })}`,
        );
        // What cannot be seen from outside is said so, never passed.
        expect(
          await section.locator('tr[data-rule=message_format]').getAttribute('data-status'),
        ).toBe('unknown');
      }
      // The sending side's TLS cannot be seen; the receiving side's is a rule of its own.
      const gmailTls = result.locator('section[data-provider=gmail] tr[data-rule=tls]');
      expect(await gmailTls.getAttribute('data-status')).toBe('unknown');
      const inbound = result.locator('section[data-provider=receiving] tr[data-rule=inbound_tls]');
      expect(await inbound.getAttribute('data-status')).toBe('fail');
      if (lang === 'en') expect(await inbound.textContent()).toContain(demoMail.mxPlain.host);
      else expect(await inbound.textContent()).toContain(t('mail.advice.inbound_tls_fail'));
      // The probes reached the servers: mx1's TLS handshake is in the MX table.
      expect(await result.locator('table', { hasText: demoMail.mxTls.host }).textContent()).toMatch(
        /TLSv1\.[23]/,
      );
      // One result, its share links, and no sideways scroll at this width.
      expect(await page.locator('#outcome .share-links').count()).toBe(1);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(
        true,
      );
      const past = await page.evaluate(`[...document.querySelectorAll('#outcome *')]
        .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((node) => node.tagName + ': ' + node.textContent.trim().slice(0, 40))`);
      expect(past).toEqual([]);
      expect(problems).toEqual([]);
    });
  });
});
