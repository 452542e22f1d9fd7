/**
 * A watch's history over time (docs/watches.md, "Listed since", "Chart and strip"): when each
 * listing began, the number of listings from change to change, the days of the last 30. Pure,
 * over structural types: the engine above and the watch's views use it.
 */
export { lastedMs, listingStart } from './periods.js';
export { type SinceFact, stampSince, withSince } from './since.js';
export {
  type DayState,
  dayStrip,
  type ListingKey,
  listingSteps,
  type Step,
  type TimelineEntry,
} from './steps.js';
