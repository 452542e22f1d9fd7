import { describe, expect, it } from 'vitest';
import { type Lang, translator } from '../../../src/i18n/index.js';
import { en } from '../../../src/i18n/en.js';
import { ru } from '../../../src/i18n/ru.js';
import { renderSharePage } from '../../../src/pages/share-page.js';
import { requirementRuleIds } from '../../../src/reputation/results/index.js';
import { resultTexts } from '../../../src/share/result-texts.js';
import { mailFindingCodes, mailPage } from '../../../src/tools/mail/page.js';
import { summariseMail } from '../../../src/tools/mail/summary.js';
import { testSite } from '../../support/site.js';
import { failingMail, goodMail, mailResults, tarpitMail } from './mail-results.js';
import type { MailCheckResult } from '../../../src/reputation/results/index.js';

/**
 * The mail result as the share page draws it (the check page shows the same section): a
 * checklist per provider, what cost points explained with what to do, then the details, in
 * English and Russian.
 */

const site = await testSite('/tools/ip-reputation');

async function sharePage(result: MailCheckResult, lang: Lang): Promise<string> {
  const t = translator(lang);
  const stored = result as unknown as Record<string, unknown>;
  const summary = summariseMail(stored);
  const texts = resultTexts(lang, t, new Map());
  return renderSharePage({
    site,
    lang,
    t,
    view: mailPage(stored, { lang, t, summary, texts }),
    summary,
    links: {
      page: 'https://rep.example.org/mail/v1/share/x',
      card: 'https://rep.example.org/mail/v1/share/x/card',
      badge: 'https://rep.example.org/mail/v1/share/x/badge.svg',
      images: { card: '/mail/v1/share/x/card', badge: '/mail/v1/share/x/badge.svg' },
      result: '/mail/v1/x',
      checkAnother: '/?tool=mail',
    },
    languageHref: (other) => `/mail/v1/share/x?lang=${other}`,
  });
}

const escaped = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** Each provider's checklist as drawn: `rule:status` per row, in the order of the result. */
function checklists(page: string): Record<string, string[]> {
  const sections = [
    ...page.matchAll(/<section class="mail-provider" data-provider="(\w+)">([\s\S]*?)<\/section>/g),
  ];
  return Object.fromEntries(
    sections.map(([, provider, body]) => [
      provider,
      [...body!.matchAll(/data-rule="(\w+)" data-status="(\w+)"/g)].map(
        ([, rule, status]) => `${rule}:${status}`,
      ),
    ]),
  );
}

const expectedChecklists = (result: MailCheckResult) => ({
  ...Object.fromEntries(
    (['gmail', 'yahoo', 'microsoft'] as const).map((provider) => [
      provider,
      result.requirements[provider].rules.map((rule) => `${rule.rule}:${rule.status}`),
    ]),
  ),
  // The receiving side's STARTTLS, a rule of its own beside the providers'.
  receiving: [`inbound_tls:${result.inbound_tls.status}`],
});

const words = {
  en: {
    heading: 'Mailbox providers’ requirements',
    scope: 'The bulk-sender rules',
    unknown: 'cannot be seen',
    tarpit: 'no answer in time',
    greeting: 'at the greeting',
    noStarttls: 'no STARTTLS',
    daysLeft: '80 days left',
    notMet: 'not met',
    spfAdvice: 'Publish one TXT record starting v=spf1',
    fixes: 'What to fix first',
    fixDmarc: 'Publish a DMARC policy: p=none is enough for the providers',
    metUnseen: 'met, 4 rules not visible from outside',
  },
  ru: {
    heading: 'Требования почтовых провайдеров',
    scope: 'Правила для массовых отправителей',
    unknown: 'не видно снаружи',
    tarpit: 'нет ответа вовремя',
    greeting: 'на приветствии',
    noStarttls: 'нет STARTTLS',
    daysLeft: 'осталось 80 дней',
    notMet: 'не выполнены',
    spfAdvice: 'Опубликуйте одну TXT-запись, начинающуюся с v=spf1',
    fixes: 'Что исправить в первую очередь',
    fixDmarc: 'Опубликуйте политику DMARC',
    metUnseen: 'выполнены, 4 правила не видно снаружи',
  },
} as const;

describe.each(['en', 'ru'] as const)('the mail result in %s', (lang) => {
  const w = words[lang];

  it.each(Object.entries(mailResults))(
    'draws the %s domain as a checklist per provider',
    async (_, result) => {
      const page = await sharePage(result, lang);
      expect(checklists(page)).toEqual(expectedChecklists(result));
      expect(page).toContain(w.heading);
      expect(page).toContain(w.scope);
      // Each provider links the pages that state its rules, with the date they took effect.
      for (const provider of ['gmail', 'yahoo', 'microsoft'] as const) {
        for (const { source } of result.requirements[provider].rules) {
          expect(page).toContain(`href="${source.url}"`);
          if (source.date) expect(page).toContain(source.date);
        }
      }
      // What cannot be seen from outside is said, never passed.
      expect(page.split(w.unknown).length - 1).toBeGreaterThanOrEqual(3 + 3 + 1);
      // Every finding that cost points is explained with what to do.
      for (const factor of result.mail_score.factors) {
        expect(page).toContain(`data-code="${factor.code}"`);
        const code = factor.code as (typeof mailFindingCodes)[number];
        expect(page).toContain(escaped(translator(lang)(`mail.advice.${code}`)));
      }
      // No catalog key left untranslated (a missing key is drawn as itself).
      expect(page).not.toMatch(/(?<![-\w])mail\.[a-z]/);
    },
  );

  it('shows a sound domain passing every provider, with its MX, MTA-STS and DANE', async () => {
    const page = await sharePage(goodMail, lang);
    expect(goodMail.requirements.gmail.verdict).toBe('pass');
    expect(page).toContain('data-smtp="ok"');
    expect(page).toContain('TLS_AES_256_GCM_SHA384');
    expect(page).toContain(w.daysLeft);
    expect(page).toContain('*.demo-mail.example');
  });

  it('shows a failing domain: each provider not met, what to do first', async () => {
    const page = await sharePage(failingMail, lang);
    expect(failingMail.requirements.microsoft.verdict).toBe('fail');
    expect(page).toContain(w.notMet);
    expect(page).toContain(w.noStarttls);
    expect(page).toContain(w.spfAdvice);
    const codes = [...page.matchAll(/<tr data-code="(\w+)"/g)].map(([, code]) => code);
    expect(codes).toEqual(failingMail.mail_score.factors.map((factor) => factor.code));
    expect(codes).toContain('spf_fail');
    expect(codes).toContain('mx_certificate');
  });

  it('puts what to fix first at the top, in order, with the exact record where one is the fix', async () => {
    const page = await sharePage(failingMail, lang);
    const fixes = /<section class="mail-fixes" id="fixes">([\s\S]*?)<\/section>/.exec(page);
    expect(fixes, 'the page has its fixes').not.toBeNull();
    // Before the providers' checklists and everything else of the result.
    expect(page.indexOf('class="mail-fixes"')).toBeLessThan(page.indexOf('class="mail-provider"'));
    expect(fixes![1]).toContain(w.fixes);
    const shown = [...fixes![1]!.matchAll(/<li data-code="(\w+)"/g)].map(([, code]) => code);
    expect(shown).toEqual(failingMail.fixes.map((fix) => fix.code));
    expect(shown[0]).toBe('publish_dmarc');
    expect(fixes![1]).toContain(
      '_dmarc.broken-mail.example TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@broken-mail.example"',
    );
    expect(fixes![1]).toContain(w.fixDmarc);
  });

  it('says a met verdict with the rules not visible from outside, never a bare met', async () => {
    const page = await sharePage(goodMail, lang);
    const pill = /data-provider="gmail">\s*<h3>[\s\S]*?<span class="pill[^"]*"\s*>([^<]*)</.exec(
      page,
    );
    expect(pill?.[1]?.trim()).toBe(w.metUnseen);
  });

  it('shows a tarpit MX as no answer in time, at the greeting', async () => {
    const page = await sharePage(tarpitMail, lang);
    const row = /<tr data-host="mx3.slow-mail.example" data-smtp="timeout">([\s\S]*?)<\/tr>/.exec(
      page,
    );
    expect(row?.[1]).toContain(w.tarpit);
    expect(row?.[1]).toContain(w.greeting);
  });
});

describe('the mail catalogs', () => {
  it('explain every finding code the mail score makes, in both languages', () => {
    // The score's codes: each rule that costs points, failed or warned, and the fixed findings.
    const ruleCodes = requirementRuleIds
      .filter(
        (rule) => !['spam_rate', 'one_click_unsubscribe', 'message_format', 'tls'].includes(rule),
      )
      .flatMap((rule) => [`${rule}_fail`, `${rule}_warn`]);
    expect(mailFindingCodes).toEqual(expect.arrayContaining(ruleCodes));
    for (const code of mailFindingCodes) {
      for (const catalog of [en, ru] as Record<string, unknown>[]) {
        expect(catalog[`mail.finding.${code}`]).toEqual(expect.any(String));
        expect(catalog[`mail.advice.${code}`]).toEqual(expect.any(String));
      }
      expect(en[`mail.advice.${code}`]).not.toBe(ru[`mail.advice.${code}`]);
    }
  });
});
