import { readFile } from 'node:fs/promises';
import { type CardFonts, cardFontFiles, cardFontsFrom } from '../../share/index.js';

/** Where the Node server reads the card's fonts: assets/fonts (its README names their licence). */
export const fontDirectory = new URL('../../../assets/fonts/', import.meta.url);

/** The card's fonts read from `directory`; a missing file rejects with its path. */
export async function readCardFonts(directory: URL = fontDirectory): Promise<CardFonts> {
  const files = await Promise.all(
    cardFontFiles.map(
      async (name) => [name, await readFile(new URL(name, directory))] as [string, Uint8Array],
    ),
  );
  return cardFontsFrom(new Map(files));
}
