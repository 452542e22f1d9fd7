import { hex, utf8 } from '../lib/index.js';
/**
 * The pages' static assets (one script, one stylesheet): served under a name that carries a hash
 * of their bytes, so they can be cached for a year and a new release never meets a stale copy.
 * Separate files rather than inline code, so a strict Content-Security-Policy needs no
 * `'unsafe-inline'`, nonce or hash (docs/pages.md).
 */

export interface PageAsset {
  /** `pages.3f2a1b9c0d.js`: the name the page links to. */
  file: string;
  contentType: string;
  body: Uint8Array;
  etag: string;
}

export interface PageAssets {
  script: PageAsset;
  style: PageAsset;
  byFile: ReadonlyMap<string, PageAsset>;
}

export interface PageAssetSources {
  script: string;
  style: string;
}

async function asset(stem: string, extension: string, contentType: string, text: string) {
  const body = utf8.encode(text);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  const hash = hex(digest.slice(0, 5));
  return { file: `${stem}.${hash}.${extension}`, contentType, body, etag: `"${hash}"` };
}

export async function preparePageAssets(sources: PageAssetSources): Promise<PageAssets> {
  const script = await asset('pages', 'js', 'text/javascript; charset=utf-8', sources.script);
  const style = await asset('pages', 'css', 'text/css; charset=utf-8', sources.style);
  return { script, style, byFile: new Map([script, style].map((item) => [item.file, item])) };
}
