/** The HTML pages: the check page, the share page, the HTML 404, their assets and CSP (docs/pages.md). */

export { type PageAssets, type PageAssetSources, preparePageAssets } from './assets.js';
export { pageContentSecurityPolicy } from './csp.js';
export type { ToolResult } from './result-view.js';
export { addPageRoutes, htmlNotFound, htmlResponse, languageChoiceOf } from './routes.js';
export { renderSharePage } from './share-page.js';
export { createSite, type Site } from './site.js';
