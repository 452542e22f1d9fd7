import satori from 'satori';
import { describe, expect, it } from 'vitest';
import { fitTarget } from '../../src/share/card-target.js';
import { readCardFonts } from '../../src/node/cards/fonts.js';
import { graphemesOf, shortenEnd, shortenMiddle } from '../../src/share/shorten.js';
import { estimateWidth, wrapName } from '../../src/share/text-width.js';
import { cyrillicName, longestName } from './fixtures.js';

describe('shortenMiddle', () => {
  it('leaves text that fits alone', () => {
    expect(shortenMiddle('example.com', 11)).toBe('example.com');
  });

  it('cuts the middle out and keeps both ends', () => {
    expect(shortenMiddle('mail.very-long-name.example.com', 15)).toBe('mail.ve…ple.com');
  });

  it('never splits a grapheme', () => {
    // "é" as e + combining acute, and a flag made of two regional indicators
    const shortened = shortenMiddle('e\u0301e\u0301e\u0301🇷🇺🇷🇺🇷🇺', 4);
    expect(shortened).toBe('e\u0301…🇷🇺🇷🇺');
  });
});

describe('graphemesOf', () => {
  it('splits ASCII with an ellipsis as the segmenter does, and still joins accents and flags', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
    for (const text of [
      'mail.ex…ple.com',
      ' ~!"#$%&()*+,-./09:;<=>?@AZ[\\]^_`az{|}',
      'e\u0301…🇷🇺',
    ]) {
      expect(graphemesOf(text)).toEqual(
        Array.from(segmenter.segment(text), (part) => part.segment),
      );
    }
  });
});

describe('shortenEnd', () => {
  it('cuts a sentence at its end, without a space before the ellipsis', () => {
    expect(shortenEnd('Listed for sending spam', 12)).toBe('Listed for…');
    expect(shortenEnd('Spam domain', 11)).toBe('Spam domain');
  });
});

describe('estimateWidth', () => {
  // The card relies on estimates that are never narrower than what satori draws.
  it.each([
    ['a Latin name', 'mail-relay-03.outbound.example-corporation.com'],
    ['digits', '203.0.113.255'],
    ['an IPv6 address', '2001:db8:85a3:1234:5678:8a2e:370:7334'],
    ['a Cyrillic name', 'почтовый-сервер.пример-длинного-домена.рф'],
    ['wide letters', 'mmwwшщжюMW…—'],
    ['wide letters outside the classes', 'æœљњŵḿÆŒЉЊŴǆ'],
    ['Latin Extended', 'łódź-żółć.ğüşiöç.pl'],
    ['a sentence', 'Listed for sending unsolicited bulk email'],
  ])('is at least the width satori lays out for %s', async (_, text) => {
    const { fonts, fontFamily } = await readCardFonts();
    for (const fontWeight of [400, 600, 700]) {
      const svg = await satori(
        {
          type: 'div',
          props: {
            style: {
              display: 'flex',
              alignItems: 'flex-start',
              width: '100%',
              height: '100%',
              fontFamily,
            },
            children: {
              type: 'div',
              props: {
                style: { fontSize: 100, fontWeight, whiteSpace: 'pre', backgroundColor: '#000' },
                children: text,
              },
            },
          },
        },
        { width: 8000, height: 200, fonts },
      );
      const drawn = /<rect x="0" y="0" width="([\d.]+)"[^>]*fill="#000"/.exec(svg);
      expect(drawn, 'text box in the SVG').not.toBeNull();
      expect(Number(drawn![1])).toBeLessThanOrEqual(estimateWidth(text, 100));
    }
  });
});

describe('wrapName', () => {
  it('ends lines between labels', () => {
    const lines = wrapName('mail-relay-03.outbound.example-corporation.com', 44, 500);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/[.\-:]$/);
    expect(lines.join('')).toBe('mail-relay-03.outbound.example-corporation.com');
  });

  it('breaks a label longer than a line anywhere, keeping every line within the width', () => {
    const lines = wrapName(longestName, 36, 788);
    expect(lines.join('')).toBe(longestName);
    for (const line of lines) expect(estimateWidth(line, 36)).toBeLessThanOrEqual(788);
  });
});

describe('fitTarget', () => {
  it('sets a short name big on one line', () => {
    expect(fitTarget(cyrillicName, 788)).toEqual({ fontSize: 80, lines: [cyrillicName] });
  });

  it('wraps an IPv6 address at its colons rather than shortening it', () => {
    const { lines } = fitTarget('2001:db8:85a3:1234:5678:8a2e:370:7334', 788);
    expect(lines.join('')).toBe('2001:db8:85a3:1234:5678:8a2e:370:7334');
    expect(lines.length).toBeLessThanOrEqual(2);
  });

  it('shortens a 253-character name in the middle to three lines', () => {
    const { fontSize, lines } = fitTarget(longestName, 788);
    expect(fontSize).toBe(36);
    expect(lines.length).toBeLessThanOrEqual(3);
    const shown = lines.join('');
    expect(shown).toContain('…');
    expect(shown.startsWith('a-x')).toBe(true);
    expect(shown.endsWith('y.com')).toBe(true);
  });
});
