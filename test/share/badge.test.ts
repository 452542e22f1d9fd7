import { describe, expect, it } from 'vitest';
import { badgeStyles, renderBadge, renderMissingBadge } from '../../src/share/badge.js';
import { longestIpv6, longestName, summaryFor, tools } from './fixtures.js';
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
      coverage: {
        blocking: 2,
        informational: 0,
        answered: 16,
        not_answered: 2,
        on_hold: 1,
        disabled: 1,
        total: 20,
      },
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
      coverage: {
        blocking: 0,
        informational: 1,
        answered: 18,
        not_answered: 0,
        on_hold: 0,
        disabled: 0,
        total: 18,
      },
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
      coverage: {
        blocking: 0,
        informational: 0,
        answered: 0,
        not_answered: 0,
        on_hold: 18,
        disabled: 0,
        total: 18,
      },
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
