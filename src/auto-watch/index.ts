/**
 * Reports meet watches (docs/reports.md, "Reports meet watches"): the inboxes' auto-watch over
 * the watch engine's face, for another subsystem. It stands above both the reports and the
 * watches (docs/layout.md).
 */
export {
  type AutoWatch,
  type AutoWatchDeps,
  type AutoWatchTiming,
  createAutoWatch,
  defaultTiming,
} from './auto-watch.js';
export type { ConfigureOutcome } from './destination.js';
export type { AutoWatchRunner } from './runner.js';
export { type AutoWatchSettings, settingsOf } from './settings.js';
