/**
 * The shareable artefacts: the SVG badge, the PNG card's layout and its cache, and the summary
 * and sentences both carry.
 */

export {
  type BadgeStyle,
  badgeStyles,
  renderBadge,
  renderEndedBadge,
  renderMissingBadge,
} from './badge.js';
export { type CardCache, CardRendererBusy, createCardCache } from './card-cache.js';
export { colours } from './card-theme.js';
export { cardSvg, warmUpSummary } from './card.js';
export {
  findingsOf,
  providerVerdictText,
  sentenceOf,
  unansweredTexts,
  vouchingTexts,
} from './count-texts.js';
export { cardFontFiles, type CardFonts, cardFontsFrom, createFontLoader } from './fonts.js';
export {
  type MeaningTable,
  resultTexts,
  type ResultTexts,
  russianMeanings,
} from './result-texts.js';
export {
  type DayState,
  type NextStep,
  type ProviderVerdicts,
  providerVerdicts,
  type ShareListing,
  type ShareSummary,
} from './summary.js';
export { addressTone, type ListReading, type ListTone, readList } from './verdict-model.js';
