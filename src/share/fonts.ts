import type { Font, FontWeight } from 'satori';

/**
 * The card's fonts: Inter, in the subsets shipped in assets/fonts (see its README). Each subset is
 * its own family, listed together in `fontFamily`: satori picks one font per family and weight,
 * so subsets sharing a name would draw every Cyrillic letter as a box.
 */

interface Subset {
  family: string;
  file: string;
  /** Code points the subset covers, as published in @fontsource/inter's unicode.json. */
  unicodeRange: string;
}

const subsets: readonly Subset[] = [
  {
    family: 'Inter',
    file: 'latin',
    unicodeRange:
      'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  },
  {
    family: 'Inter Latin Ext',
    file: 'latin-ext',
    unicodeRange:
      'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF',
  },
  {
    family: 'Inter Cyrillic',
    file: 'cyrillic',
    unicodeRange: 'U+0301,U+0400-045F,U+0490-0491,U+04B0-04B1,U+2116',
  },
];

const weights: readonly FontWeight[] = [400, 600, 700];

export interface CardFonts {
  /** For satori's `fonts` option. Pass the same array every time: satori caches parsed fonts by it. */
  fonts: Font[];
  /** A CSS font-family naming every subset. */
  fontFamily: string;
  /** Whether every character of `text` has a glyph, so it will not render as boxes. */
  covers(text: string): boolean;
}

function parseUnicodeRange(range: string): Array<[number, number]> {
  return range.split(',').map((part) => {
    const [from = '', to = from] = part.replace('U+', '').split('-');
    return [parseInt(from, 16), parseInt(to, 16)];
  });
}

const coveredRanges = subsets.flatMap((subset) => parseUnicodeRange(subset.unicodeRange));

function covers(text: string): boolean {
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (!coveredRanges.some(([from, to]) => codePoint >= from && codePoint <= to)) return false;
  }
  return true;
}

/** The font files the card needs, by file name (`inter-latin-400-normal.woff`, ...). */
export const cardFontFiles: readonly string[] = subsets.flatMap((subset) =>
  weights.map((weight) => fontFileName(subset, weight)),
);

function fontFileName(subset: Subset, weight: FontWeight): string {
  return `inter-${subset.file}-${weight}-normal.woff`;
}

/**
 * The card's fonts from the files' bytes, however the runtime got them: read from assets/fonts
 * on Node (src/node/cards/fonts.ts), bundled into the Worker on Workers (src/workers/fonts.ts).
 */
export function cardFontsFrom(files: ReadonlyMap<string, Uint8Array | ArrayBuffer>): CardFonts {
  const fonts = subsets.flatMap((subset) =>
    weights.map((weight): Font => {
      const name = fontFileName(subset, weight);
      const data = files.get(name);
      if (!data) throw new Error(`card font ${name} is missing`);
      // satori takes an ArrayBuffer (or a Node Buffer): a view is handed over as its own bytes.
      const bytes =
        data instanceof Uint8Array
          ? (data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer)
          : data;
      return { name: subset.family, weight, style: 'normal', data: bytes };
    }),
  );
  const fontFamily = subsets.map((subset) => `'${subset.family}'`).join(', ');
  return { fonts, fontFamily, covers };
}

/**
 * Reads the fonts on first use and then hands out the same CardFonts (and so the same `fonts`
 * array satori caches by); a failed read is not remembered, the next call reads again.
 */
export function createFontLoader(read: () => Promise<CardFonts>): () => Promise<CardFonts> {
  let loading: Promise<CardFonts> | undefined;
  return () => {
    loading ??= read().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
