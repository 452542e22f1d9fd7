import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { translator } from '../../../src/i18n/index.js';
import { createCardRenderer } from '../../../src/node/cards/card-render.js';
import { readCardFonts } from '../../../src/node/cards/fonts.js';
import { renderBadge } from '../../../src/share/badge.js';
import { cardLayout, coverageLine, textColumnWidth } from '../../../src/share/card-layout.js';
import { estimateWidth } from '../../../src/share/text-width.js';
import { sentenceOf } from '../../../src/share/count-texts.js';
import type { Child, Element } from '../../../src/share/element.js';
import { createFontLoader } from '../../../src/share/fonts.js';
import { summariseMail } from '../../../src/tools/mail/summary.js';
import { parseStrictSvg } from '../../share/svg-structure.js';
import { failingMail, goodMail, tarpitMail } from './mail-results.js';
import type { MailCheckResult } from '../../../src/reputation/results/index.js';

/** What a mail check's badge, card and share sentence say: the providers' verdicts and the score. */

const summary = (result: MailCheckResult) =>
  summariseMail(result as unknown as Record<string, unknown>);

function badgeTitle(svg: string): string {
  return parseStrictSvg(svg).children.find((element) => element.name === 'title')!.text;
}

/** Every text drawn on a card's element tree. */
function cardTexts(node: Child | Element | undefined): string[] {
  if (typeof node === 'string') return [node];
  if (!node || typeof node !== 'object') return [];
  const children = (node.props as { children?: Child | Child[] }).children;
  return (Array.isArray(children) ? children : [children]).flatMap((child) =>
    cardTexts(child as Child),
  );
}

describe('summariseMail', () => {
  it('reads the mail score and each provider’s verdict, counting no lists', () => {
    expect(summary(failingMail)).toMatchObject({
      tool: 'mail',
      counts: 'requirements',
      target: 'broken-mail.example',
      verdict: 'poor',
      score: failingMail.mail_score.score,
      providers: { gmail: 'fail', yahoo: 'fail', microsoft: 'fail' },
      listings: [],
      checkedAt: failingMail.checked_at,
    });
    expect(summary(goodMail)).toMatchObject({
      verdict: 'good',
      score: 100,
      providers: { gmail: 'pass', yahoo: 'pass', microsoft: 'pass' },
    });
  });

  it('says it in one sentence, in both languages, a met verdict with the rules not visible from outside', () => {
    expect(sentenceOf(summary(tarpitMail), translator('en'))).toBe(
      `slow-mail.example: ${tarpitMail.mail_score.verdict}, score ${tarpitMail.mail_score.score}/100; bulk-sender requirements: Gmail: met with warnings, 4 rules not visible from outside, Yahoo: met, 3 rules not visible from outside, Microsoft: met, 1 rule not visible from outside.`,
    );
    expect(sentenceOf(summary(failingMail), translator('ru'))).toContain(
      'требования к массовым отправителям: Gmail: не выполнены, Yahoo: не выполнены, Microsoft: не выполнены',
    );
  });
});

describe('the mail badge', () => {
  it('names each provider’s verdict and the score, in English and Russian', () => {
    const good = summary(goodMail);
    expect(badgeTitle(renderBadge(good, 'flat'))).toBe(
      'mail demo-mail.example: Gmail ok · Yahoo ok · Microsoft ok · 100/100',
    );
    const failing = summary(failingMail);
    const score = failingMail.mail_score.score;
    expect(badgeTitle(renderBadge(failing, 'flat', 'ru'))).toBe(
      `почта broken-mail.example: Gmail отказ · Yahoo отказ · Microsoft отказ · ${score}/100`,
    );
    expect(renderBadge(failing, 'flat')).toContain('#dd4343'); // badge-maker's red
    expect(badgeTitle(renderBadge(summary(tarpitMail), 'flat'))).toContain('Gmail warn');
  });
});

describe('the mail card', () => {
  it('says what the providers decided, not how many lists answered', () => {
    const en = cardTexts(cardLayout(summary(failingMail), 'Inter', 'en'));
    expect(en).toContain('Fails the rules of 3 of 3 providers');
    expect(en).toContain('Gmail: not met · Yahoo: not met · Microsoft: not met');
    expect(en.join(' ')).not.toMatch(/list/i);
    const ru = cardTexts(cardLayout(summary(goodMail), 'Inter', 'ru'));
    expect(ru).toContain('Видимые правила всех провайдеров выполнены');
    expect(ru).toContain('Gmail: выполнены · Yahoo: выполнены · Microsoft: выполнены');
    expect(cardTexts(cardLayout(summary(tarpitMail), 'Inter', 'ru'))).toContain(
      'Gmail: замечания · Yahoo: выполнены · Microsoft: выполнены',
    );
    expect(cardTexts(cardLayout(summary(tarpitMail), 'Inter', 'en'))).toContain(
      'Meets the rules that can be seen, with warnings',
    );
  });

  it.each(['en', 'ru'] as const)(
    'fits every provider’s verdict on the card’s line in %s, none cut (warnings everywhere the longest)',
    (lang) => {
      const t = translator(lang);
      for (const verdict of ['pass', 'warn', 'fail'] as const) {
        const line = coverageLine(
          {
            ...summary(tarpitMail),
            providers: { gmail: verdict, yahoo: verdict, microsoft: verdict },
          },
          t,
        );
        // The line's smallest size is 18 px; past the column its end would be cut.
        expect(estimateWidth(line!, 18)).toBeLessThanOrEqual(textColumnWidth);
      }
    },
  );

  const renderCard = createCardRenderer(createFontLoader(() => readCardFonts()));

  it.each([
    ['en', goodMail],
    ['ru', failingMail],
    ['en', tarpitMail],
  ] as const)(
    'draws a real 1200x630 PNG in %s',
    async (lang, result) => {
      const png = await renderCard(summary(result), lang);
      const image = sharp(png);
      const { format, width, height } = await image.metadata();
      expect({ format, width, height }).toEqual({ format: 'png', width: 1200, height: 630 });
      const { channels } = await image.stats();
      expect(Math.max(...channels.map((channel) => channel.stdev))).toBeGreaterThan(20);
    },
    30_000,
  );
});
