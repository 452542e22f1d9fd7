/**
 * Counting and cutting by grapheme, not UTF-16 unit, so a shortened IDN never ends in half a
 * surrogate pair or a letter torn from its combining accent.
 */
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Printable ASCII and the ellipsis the shorteners add never join into a larger grapheme, and
 * most of a card's text is only that: such text is split per character, which skips the
 * segmenter's ~1 ms a card (the width estimates call this about 40 times).
 */
const singleCharacterGraphemes = /^[\x20-\x7e…]*$/;

export function graphemesOf(text: string): string[] {
  if (singleCharacterGraphemes.test(text)) return text.split('');
  return Array.from(graphemes.segment(text), (part) => part.segment);
}

/**
 * Shortens text to at most `maxLength` graphemes by replacing its middle with an ellipsis. The
 * middle, not the end: for a host name both the first label and the registered domain at the end
 * are what a reader recognises.
 */
export function shortenMiddle(text: string, maxLength: number): string {
  const parts = graphemesOf(text);
  if (parts.length <= maxLength) return text;
  const kept = Math.max(maxLength - 1, 0);
  const head = Math.floor(kept / 2);
  const tail = kept - head;
  return `${parts.slice(0, head).join('')}…${parts.slice(parts.length - tail).join('')}`;
}

/** Shortens prose to at most `maxLength` graphemes by cutting its end, as a sentence reads. */
export function shortenEnd(text: string, maxLength: number): string {
  const parts = graphemesOf(text);
  if (parts.length <= maxLength) return text;
  const kept = parts.slice(0, Math.max(maxLength - 1, 0)).join('');
  return `${kept.trimEnd()}…`;
}
