/**
 * pages.js is a browser script, served as it is. The Worker imports its text (a Text module,
 * wrangler.toml `[[rules]]`, src/workers/page-assets.ts): this is what that import gives.
 */
declare const text: string;
export default text;
