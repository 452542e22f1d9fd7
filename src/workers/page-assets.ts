import style from '../../assets/pages/pages.css';
import script from '../../assets/pages/pages.js';
import type { PageAssetSources } from '../pages/index.js';

/** The pages' script and stylesheet, bundled into the Worker as text (wrangler.toml `[[rules]]`). */
export const bundledPageAssets: PageAssetSources = { script, style };
