import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Lang, translator } from '../../src/i18n/index.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import type { Listening } from '../../fixtures/mail-world.js';
import { startDemoMail } from '../../scripts/demo-mail.js';
import { demoMail, demoWorld } from '../../scripts/demo-world.js';
import { type TestBrowser, launchChromium } from '../support/browser.js';
import { operatorHeaders, type TestService, startTestService } from '../support/service.js';

/**
 * The check page posting a mail check in a real browser (Debian's Chromium), against the real
 * app over the demo world's mail domain: its MX hosts are real SMTP servers on 127.0.0.2 (with
 * STARTTLS, on a certificate of the run's test CA) and 127.0.0.3 (without), its MTA-STS policy a
 * real HTTPS server on 127.0.0.4 (fixtures/mail-world.ts, started as `npm run demo` starts them),
 * reached because PROBE_ALLOW_NETWORKS allows 127.0.0.0/8 and the page sends OPERATOR_TOKEN. The checklist per provider must show
 * each provider's verdict and the failing rule's words, in English and Russian, at a desktop's
 * and a phone's width, with no sideways scroll and no console error (a CSP violation included).
 * Beside test/pages/browser.test.ts, whose service has no mail world.
 */

let service: TestService;
let browser: TestBrowser;
let servers: Listening[] = [];

beforeAll(async () => {
  const mail = await startDemoMail(inject('mailCa'));
  servers = mail.servers;
  [service, browser] = await Promise.all([
    startTestService({
      world: demoWorld(await loadZoneList()),
      asOperator: true,
      env: {
        PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
        PROBE_SMTP_PORT: String(mail.smtpPort),
        PROBE_HTTPS_PORT: String(mail.httpsPort),
        SMTP_TIMEOUT_MS: '2000',
        // The mail check asks its DNS, probes two MX servers and fetches a policy: room for a
        // busy machine.
        CHECK_DEADLINE_MS: '5000',
      },
    }),
    launchChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await Promise.all(servers.map((server) => server.close()));
});

/** What the demo's mail domain must read as: mx2 offers no STARTTLS, which Gmail requires. */
const expected = { gmail: 'fail', yahoo: 'warn', microsoft: 'warn' } as const;
const pills = { pass: 'good', warn: 'fair', fail: 'poor' } as const;

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

    it('shows the checklist per provider: each verdict, and the failing rule in words', async () => {
      await page.goto(service.url('/'));
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      await page.waitForSelector('#quota:not(:empty)');
      await page.check('input[name=tool][value=mail]');
      await page.fill('#target', demoMail.domain);
      await page.click('#submit');
      await page.waitForSelector('#outcome .outcome .mail-result');
      const result = page.locator('#outcome .outcome').first();

      expect(await result.locator('h2').first().textContent()).toBe(t('mail.requirements'));
      for (const [provider, verdict] of Object.entries(expected)) {
        const section = result.locator(`section.mail-provider[data-provider=${provider}]`);
        const pill = section.locator('h3 .pill');
        expect(await pill.getAttribute('class')).toContain(`verdict-${pills[verdict]}`);
        expect((await pill.textContent())?.trim()).toBe(t(`mail.verdict.${verdict}`));
        // The failing rule: STARTTLS on the MX servers, with what was seen (English) or what to
        // do (Russian), in the page's language.
        const tls = section.locator('tr[data-rule=tls]');
        expect(await tls.getAttribute('data-status')).toBe('fail');
        const [rule, status, detail] = (await tls.locator('td').allTextContents()).map((text) =>
          text.replace(/\s+/g, ' ').trim(),
        );
        expect(rule).toContain(t('mail.rule.tls'));
        expect(status).toBe(t('mail.status.fail'));
        expect(detail).toBe(
          lang === 'en'
            ? `no STARTTLS on ${demoMail.mxPlain.host} (RFC 3207)`
            : t('mail.advice.tls_fail'),
        );
        // What cannot be seen from outside is said so, never passed.
        expect(
          await section.locator('tr[data-rule=message_format]').getAttribute('data-status'),
        ).toBe('unknown');
      }
      if (lang === 'ru') expect(t('mail.advice.tls_fail')).toMatch(/[а-яё]/);
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
