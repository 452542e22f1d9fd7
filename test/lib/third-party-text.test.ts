import { describe, expect, it } from 'vitest';
import {
  cleanThirdPartyText,
  replaceUnsafeCharacters,
  thirdPartyTextChars,
} from '../../src/lib/third-party-text.js';

/** Third-party text as the service keeps it: no control or invisible character, a few hundred characters. */

describe('cleanThirdPartyText', () => {
  it.each([
    ['a NUL byte', 'mx\u0000.example.org', 'mx\ufffd.example.org'],
    ['an escape sequence', '\u001b[31mred\u001b[0m', '\ufffd[31mred\ufffd[0m'],
    ['DEL and a C1 control', 'a\u007fb\u0085c', 'a\ufffdb\ufffdc'],
    ['a right-to-left override', 'moc.knab\u202e', 'moc.knab\ufffd'],
    ['a bidi isolate and a zero-width space', '\u2067x\u200by\u2069', '\ufffdx\ufffdy\ufffd'],
    ['a byte order mark and a line separator', '\ufeffa\u2028b', '\ufffda\ufffdb'],
    ['a lone high surrogate', 'a\ud800b', 'a\ufffdb'],
    ['a lone low surrogate', 'a\udc00b', 'a\ufffdb'],
    [
      'a multi-line SMTP reply',
      '250-mx.example.org\r\n250-PIPELINING\r\n250 STARTTLS',
      '250-mx.example.org 250-PIPELINING 250 STARTTLS',
    ],
    ['tabs', 'a\t\tb', 'a b'],
  ])('replaces %s', (_what, text, cleaned) => {
    expect(cleanThirdPartyText(text)).toBe(cleaned);
  });

  it('keeps text that holds nothing unsafe as it is, non-Latin scripts and emoji included', () => {
    for (const text of ['mx1.example.org', 'Спам-лист', '550 5.7.1 🚫 rejected', 'عربي']) {
      expect(cleanThirdPartyText(text)).toBe(text);
    }
  });

  it(`clips to ${thirdPartyTextChars} characters, the last an ellipsis`, () => {
    const clipped = cleanThirdPartyText('x'.repeat(60_000));
    expect(clipped).toHaveLength(thirdPartyTextChars);
    expect(clipped.endsWith('x…')).toBe(true);
    expect(cleanThirdPartyText('x'.repeat(thirdPartyTextChars))).toBe(
      'x'.repeat(thirdPartyTextChars),
    );
    expect(cleanThirdPartyText('abcdef', 4)).toBe('abc…');
  });

  it('counts code points, so a pair of surrogates is never cut in two', () => {
    const emoji = '😀'.repeat(400);
    const clipped = cleanThirdPartyText(emoji);
    expect(Array.from(clipped)).toHaveLength(thirdPartyTextChars);
    expect(clipped).toBe(`${'😀'.repeat(thirdPartyTextChars - 1)}…`);
    // 300 emoji are 600 UTF-16 units and stay whole.
    expect(cleanThirdPartyText('😀'.repeat(300))).toBe('😀'.repeat(300));
  });
});

describe('replaceUnsafeCharacters', () => {
  it('replaces line breaks too, and cuts nothing (a DNS TXT string is kept whole)', () => {
    expect(replaceUnsafeCharacters('a\nb')).toBe('a\ufffdb');
    const long = 'p='.concat('A'.repeat(5000));
    expect(replaceUnsafeCharacters(long)).toBe(long);
  });
});
