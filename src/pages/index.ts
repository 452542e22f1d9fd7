/** The HTML pages: the check page, the share page, the HTML 404, their assets and CSP (docs/pages.md). */

export { type PageAssets, type PageAssetSources, preparePageAssets } from './assets.js';
export { pageContentSecurityPolicy } from './csp.js';
export { type PageTool, type ResolverAdvice } from './check-page.js';
export { type Html, renderPage } from './layout.js';
export {
  addressesTable,
  addressHtml,
  factorsTable,
  listedSince,
  listsTable,
  maxAddressesShown,
  moreThanShown,
  pointsTable,
  type ResultContext,
  type ResultView,
  shortList,
} from './result-view.js';
export {
  addPageRoutes,
  htmlNotFound,
  htmlResponse,
  languageChoiceOf,
  listsPageResponse,
  pagesTag,
} from './routes.js';
export { renderSharePage } from './share-page.js';
export { type ChartStep, timelineChart } from './timeline-chart.js';
export { createSite, type Site } from './site.js';
