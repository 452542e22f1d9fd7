import cyrillic400 from '../../assets/fonts/inter-cyrillic-400-normal.woff';
import cyrillic600 from '../../assets/fonts/inter-cyrillic-600-normal.woff';
import cyrillic700 from '../../assets/fonts/inter-cyrillic-700-normal.woff';
import latin400 from '../../assets/fonts/inter-latin-400-normal.woff';
import latin600 from '../../assets/fonts/inter-latin-600-normal.woff';
import latin700 from '../../assets/fonts/inter-latin-700-normal.woff';
import latinExt400 from '../../assets/fonts/inter-latin-ext-400-normal.woff';
import latinExt600 from '../../assets/fonts/inter-latin-ext-600-normal.woff';
import latinExt700 from '../../assets/fonts/inter-latin-ext-700-normal.woff';
import { type CardFonts, cardFontsFrom } from '../share/index.js';

/** The card's fonts, bundled into the Worker as Data modules (wrangler.toml `[[rules]]`). */
const files = new Map<string, ArrayBuffer>([
  ['inter-latin-400-normal.woff', latin400],
  ['inter-latin-600-normal.woff', latin600],
  ['inter-latin-700-normal.woff', latin700],
  ['inter-latin-ext-400-normal.woff', latinExt400],
  ['inter-latin-ext-600-normal.woff', latinExt600],
  ['inter-latin-ext-700-normal.woff', latinExt700],
  ['inter-cyrillic-400-normal.woff', cyrillic400],
  ['inter-cyrillic-600-normal.woff', cyrillic600],
  ['inter-cyrillic-700-normal.woff', cyrillic700],
]);

let fonts: CardFonts | undefined;

/** Built once per isolate: satori caches parsed fonts by the `fonts` array it is given. */
export function bundledCardFonts(): CardFonts {
  fonts ??= cardFontsFrom(files);
  return fonts;
}
