import { graphemesOf, shortenMiddle } from './shorten.js';

/**
 * satori lays text out but cannot be asked how wide a string is, so the card estimates widths to
 * pick a font size and to shorten names before layout. The figures are Inter advances in em (the
 * widest of weights 400, 600 and 700), measured with satori one character at a time and grouped,
 * each group taking its widest member, so estimates err wide.
 */
const widthClasses: ReadonlyArray<readonly [em: number, characters: string]> = [
  [0.29, ' ijlłIІЇ'],
  [0.34, ",.:;!'·"],
  [0.39, 'tf`|()[]/\\'],
  [0.47, 'r1гґ-{}_^'],
  [0.56, '"*?–'],
  [0.68, '0123456789bdpqgрдцß#$&+<=>~EFLJPSRBZT'],
  [0.8, 'KDYXCUHGAVNOQфАБВГЕЗИКЛНОПРСТУХЦЧЪЬЭЯЂЄЅЈЏ'],
  [0.93, 'ымwшжющmMæЋФДМ'],
  [1.07, '…—%@WœљњЫШЩЮЖ'],
  [1.15, 'ÆŒЉЊ'],
];
const classWidths = new Map(
  widthClasses.flatMap(([em, characters]) => Array.from(characters, (c) => [c, em] as const)),
);
/** Lowercase letters not in a class, Latin or Cyrillic, are at most this wide. */
const lowercaseWidth = 0.63;
/** Anything else (a capital or symbol not measured) is assumed wide. */
const otherWidth = 1;
/** Kerning and satori's rounding of text widths to the pixel grid. */
const slack = 1.02;

/**
 * A grapheme is as wide as the letters it decomposes to (NFKD), less its combining marks: "ŵ" is a
 * "w", a ligature "ǆ" is "dž".
 */
function emWidth(grapheme: string): number {
  let em = 0;
  for (const character of grapheme.normalize('NFKD')) {
    if (/\p{M}/u.test(character)) continue;
    em += classWidths.get(character) ?? (/\p{Ll}/u.test(character) ? lowercaseWidth : otherWidth);
  }
  return em;
}

export function estimateWidth(text: string, fontSize: number): number {
  return graphemesOf(text).reduce((em, grapheme) => em + emWidth(grapheme), 0) * fontSize * slack;
}

/** Where a name may wrap: after a dot, colon, hyphen or ellipsis, so lines end between labels. */
const nameBreak = /(?<=[.:\-…])/;

/**
 * Breaks a name into lines at most `width` wide: greedily at its break points, and a label longer
 * than a whole line anywhere. The card draws these lines itself rather than leaving wrapping to
 * satori, so the line count it plans for is the one it gets.
 */
export function wrapName(name: string, fontSize: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  let used = 0;
  const breakLine = () => {
    lines.push(current);
    current = '';
    used = 0;
  };
  for (const label of name.split(nameBreak)) {
    const labelWidth = estimateWidth(label, fontSize);
    if (used > 0 && used + labelWidth > width) breakLine();
    if (labelWidth <= width) {
      current += label;
      used += labelWidth;
      continue;
    }
    for (const grapheme of graphemesOf(label)) {
      const graphemeWidth = estimateWidth(grapheme, fontSize);
      if (used > 0 && used + graphemeWidth > width) breakLine();
      current += grapheme;
      used += graphemeWidth;
    }
  }
  if (current) lines.push(current);
  return lines;
}

/**
 * The longest shortened form of `text` that `fits` (at worst, the ellipsis alone); names are cut
 * in the middle by default.
 */
export function shortenUntil(
  text: string,
  fits: (candidate: string) => boolean,
  shorten: (text: string, maxLength: number) => string = shortenMiddle,
): string {
  if (fits(text)) return text;
  let fitting = 1;
  let tooLong = graphemesOf(text).length;
  while (tooLong - fitting > 1) {
    const middle = Math.floor((fitting + tooLong) / 2);
    if (fits(shorten(text, middle))) fitting = middle;
    else tooLong = middle;
  }
  return shorten(text, fitting);
}
