import { describe, expect, it } from 'vitest';
import { badgeStyles, renderBadge, renderMissingBadge } from '../../src/share/badge.js';
import { coverageWith, longestIpv6, longestName, summaryFor, tools } from './fixtures.js';
import { allElements, parseStrictSvg } from './svg-structure.js';

/** What badge-maker draws with; anything else (a script, a foreign object) got in from the text. */
const badgeElements = new Set([
  'svg',
  'title',
  'filter',
  'feGaussianBlur',
  'linearGradient',
  'stop',
  'clipPath',
  'rect',
  'g',
  'text',
]);

function titleOf(svg: string): string {
  const title = parseStrictSvg(svg).children.find((element) => element.name === 'title');
  if (!title) throw new Error('badge has no <title>');
  return title.text;
}

const hostileTarget = `<script>alert(1)</script>&"'.example`;

describe('renderBadge', () => {
  it.each(tools)('writes a well-formed %s badge with a hostile target escaped', (tool) => {
    const svg = renderBadge(summaryFor(tool, { target: hostileTarget }), 'flat');
    const root = parseStrictSvg(svg);
    expect(root.name).toBe('svg');
    for (const element of allElements(root)) {
      expect(badgeElements).toContain(element.name);
      expect(Object.keys(element.attributes).filter((name) => /^on/i.test(name))).toEqual([]);
    }
    expect(svg).not.toMatch(/<script/i);
    expect(titleOf(svg)).toContain(hostileTarget);
    expect(root.attributes['aria-label']).toBe(titleOf(svg));
  });

  it.each(badgeStyles)('renders the %s style', (style) => {
    const svg = renderBadge(summaryFor('ip'), style);
    const root = parseStrictSvg(svg);
    for (const element of allElements(root)) expect(badgeElements).toContain(element.name);
    expect(titleOf(svg).toLowerCase()).toBe('ip 203.0.113.7: listed on 2 of 48 · 61/100');
  });

  it('says clean on how many lists, with the score, when no list lists an IP', () => {
    const svg = renderBadge(
      summaryFor('ip', { verdict: 'good', score: 97, listed: 0, listings: [] }),
      'flat',
    );
    expect(titleOf(svg)).toBe('IP 203.0.113.7: clean on 48 lists · 97/100');
  });

  it('counts the lists that did not answer, are on hold or disabled', () => {
    const summary = summaryFor('ip', {
      listed: 2,
      checked: 16,
      coverage: coverageWith({
        blocking: 2,
        answered: 16,
        not_answered: 2,
        on_hold: 1,
        disabled: 1,
        total: 20,
      }),
    });
    expect(titleOf(renderBadge(summary, 'flat'))).toBe(
      'IP 203.0.113.7: listed on 2 of 16 · 2 no answer · 1 on hold · 1 disabled · 61/100',
    );
  });

  it('keeps an informational listing apart from a clean verdict', () => {
    const summary = summaryFor('ip', {
      verdict: 'good',
      score: 95,
      listed: 0,
      checked: 18,
      coverage: coverageWith({ informational: 1, answered: 18, total: 18 }),
    });
    expect(titleOf(renderBadge(summary, 'flat'))).toBe(
      'IP 203.0.113.7: clean on 18 lists · 1 info · 95/100',
    );
  });

  it('never says a plain clean for a domain whose sender addresses are listed', () => {
    const summary = summaryFor('domain', { verdict: 'fair', score: 75, listed: 0, listings: [] });
    expect(titleOf(renderBadge(summary, 'flat'))).toBe(
      'domain example.com: 1 of 4 sender IPs listed · domain clean on 12 lists · 75/100',
    );
  });

  it('says unknown, with what did not answer, when no list answered', () => {
    const summary = summaryFor('ip', {
      verdict: 'unknown',
      checked: 0,
      listed: 0,
      listings: [],
      coverage: coverageWith({ on_hold: 18, total: 18 }),
    });
    expect(titleOf(renderBadge(summary, 'flat'))).toBe('IP 203.0.113.7: unknown · 18 on hold');
  });

  it('counts the listed addresses of a pool', () => {
    expect(titleOf(renderBadge(summaryFor('pool'), 'flat'))).toBe(
      'pool mx.example.net: 1 of 16 listed',
    );
  });

  it('says unknown when no list answered', () => {
    const summary = summaryFor('domain', {
      verdict: 'unknown',
      checked: 0,
      listed: 0,
      listings: [],
    });
    expect(titleOf(renderBadge(summary, 'flat'))).toBe('domain example.com: unknown');
  });

  it('shortens a long target in the middle, keeping both ends', () => {
    const title = titleOf(renderBadge(summaryFor('domain', { target: longestName }), 'flat'));
    const label = title.slice(0, title.indexOf(':'));
    expect(label).toMatch(/^domain a-x+…y+\.com$/);
    expect(label.length).toBe('domain '.length + 40);
  });

  it('keeps the longest canonical IPv6 address whole, the badge as wide as its text', () => {
    const svg = renderBadge(summaryFor('ip', { target: longestIpv6 }), 'flat');
    expect(titleOf(svg)).toMatch(new RegExp(`^IP ${longestIpv6}: `));
    const texts = [...allElements(parseStrictSvg(svg))].filter(
      (element) => element.name === 'text',
    );
    // badge-maker draws each text three times (two shadows, then itself), at a tenth of the
    // scale, each held to its textLength: the label's box must be at least that wide.
    const label = texts.filter((element) => element.text === `IP ${longestIpv6}`);
    expect(label).toHaveLength(3);
    const textWidth = Number(label[0]?.attributes.textLength) / 10;
    const [labelBox] = [...allElements(parseStrictSvg(svg))].filter(
      (element) => element.name === 'rect' && element.attributes.fill === '#555',
    );
    expect(textWidth).toBeGreaterThan(200);
    expect(Number(labelBox?.attributes.width)).toBeGreaterThanOrEqual(textWidth + 10);
  });

  it('keeps an IDN in Unicode', () => {
    expect(titleOf(renderBadge(summaryFor('domain', { target: 'пример.рф' }), 'flat'))).toMatch(
      /^domain пример\.рф: /,
    );
  });
});

describe('renderBadge in Russian', () => {
  const coverage = {
    blocking: 2,
    informational: 0,
    answered: 16,
    not_answered: 2,
    on_hold: 1,
    disabled: 1,
    total: 20,
  };

  it.each([
    ['a listed IP', summaryFor('ip'), 'IP 203.0.113.7: в списках: 2 из 48 · 61/100'],
    [
      'a clean IP',
      summaryFor('ip', { verdict: 'good', score: 97, listed: 0, listings: [] }),
      'IP 203.0.113.7: чисто в 48 списках · 97/100',
    ],
    [
      'an IP some lists did not answer for',
      summaryFor('ip', { listed: 2, checked: 16, coverage }),
      'IP 203.0.113.7: в списках: 2 из 16 · без ответа: 2 · 1 приостановлен · 1 отключён · 61/100',
    ],
    [
      'a domain whose sender addresses are listed',
      summaryFor('domain', { verdict: 'fair', score: 75, listed: 0, listings: [] }),
      'домен example.com: в списках 1 из 4 IP-адресов отправителя · домен чист в 12 списках · 75/100',
    ],
    ['a pool', summaryFor('pool'), 'пул mx.example.net: в списках: 1 из 16'],
    [
      'a result no list answered',
      summaryFor('domain', { verdict: 'unknown', checked: 0, listed: 0, listings: [] }),
      'домен example.com: неизвестно',
    ],
  ])('says what the lists said about %s', (_name, summary, title) => {
    const svg = renderBadge(summary, 'flat', 'ru');
    expect(titleOf(svg)).toBe(title);
    expect(parseStrictSvg(svg).attributes['aria-label']).toBe(title);
  });

  it.each([
    [1, 'чисто в 1 списке'],
    [3, 'чисто в 3 списках'],
    [18, 'чисто в 18 списках'],
    [21, 'чисто в 21 списке'],
  ])('declines the count of %i lists', (checked, words) => {
    const summary = summaryFor('ip', { verdict: 'good', score: 97, listed: 0, checked });
    expect(titleOf(renderBadge(summary, 'flat', 'ru'))).toBe(`IP 203.0.113.7: ${words} · 97/100`);
  });

  it('draws the same Russian badge every time, and a different one from the English', () => {
    const summary = summaryFor('ip');
    expect(renderBadge(summary, 'flat', 'ru')).toBe(renderBadge(summary, 'flat', 'ru'));
    expect(renderBadge(summary, 'flat', 'ru')).not.toBe(renderBadge(summary, 'flat', 'en'));
  });

  it('keeps the longest canonical IPv6 address whole, counting the lists that cover it', () => {
    const summary = summaryFor('ip', {
      target: longestIpv6,
      verdict: 'good',
      score: 100,
      listed: 0,
      checked: 2,
      listings: [],
      coverage: {
        ...coverage,
        blocking: 0,
        answered: 2,
        not_answered: 0,
        on_hold: 0,
        disabled: 0,
        not_covered: 16,
        total: 2,
      },
    });
    expect(titleOf(renderBadge(summary, 'flat', 'ru'))).toBe(
      `IP ${longestIpv6}: чисто в 2 списках · 100/100`,
    );
  });

  it('says a missing result is not found', () => {
    expect(titleOf(renderMissingBadge('flat', 'ru'))).toBe('репутация: не найдено');
  });
});

describe('renderMissingBadge', () => {
  it.each(badgeStyles)('says not found in the %s style', (style) => {
    const svg = renderMissingBadge(style);
    for (const element of allElements(parseStrictSvg(svg)))
      expect(badgeElements).toContain(element.name);
    expect(titleOf(svg).toLowerCase()).toBe('reputation: not found');
  });
});

describe('the strict SVG reader the badge tests rely on', () => {
  it.each([
    ['a bare ampersand', '<svg><title>a & b</title></svg>'],
    ['a comment', '<svg><!-- x --></svg>'],
    ['CDATA', '<svg><text><![CDATA[<script>]]></text></svg>'],
    ['an unclosed element', '<svg><g></svg>'],
    ['an unquoted attribute', '<svg width=1></svg>'],
    ['a second root', '<svg></svg><script></script>'],
  ])('rejects %s', (_, source) => {
    expect(() => parseStrictSvg(source)).toThrow();
  });

  it('finds an injected element', () => {
    const names = [
      ...allElements(parseStrictSvg('<svg><text>a</text><script>x</script></svg>')),
    ].map((element) => element.name);
    expect(names).toContain('script');
  });
});
