/** Watches (docs/watches.md): targets re-checked on a schedule, with signed webhooks. */
export {
  type CreateOutcome,
  type CreateRequest,
  type KeyCheck,
  type UpdateOutcome,
  type UpdateRequest,
  type WatchDeps,
  type WatchError,
  type WatchFailure,
  type Watches,
  createWatches,
  watchErrors,
} from './watches.js';
export { parseWatchTarget, type WatchTargetParse } from './target.js';
export { type Recheck, type RecheckDeps, type RecheckOutcome, createRecheck } from './recheck.js';
export { type ListCatalogue, listCatalogue } from './list-catalogue.js';
export { type LinksOf, type WatchLinks } from './events.js';
export { watchLinks } from './links.js';
export type { RunnerOptions, TickReport, WatchRunner } from './runner.js';
export type { DeliveryOutcome } from './delivery-step.js';
export {
  type WatchLimits,
  maxIntervalS,
  networkCap,
  networkShareOfMax,
  runnerSizes,
} from './settings.js';
export * from './schemas.js';
export type { ChatFormat, ChatRequest, RenderChat } from './chat-format.js';
export type { RenderMail } from './chat-format.js';
export {
  type EmailAnswer,
  type MailContent,
  type EmailMessage,
  type EmailSender,
  parseEmailAddress,
  parseMailbox,
} from './email/index.js';
export {
  type DayState,
  dayStrip,
  type ListingKey,
  listingSteps,
  type Step,
  type TimelineEntry,
} from './timeline/index.js';
export {
  expiringUnderDays,
  type MailBrief,
  type MailChange,
  type MailFact,
  type MailFacts,
} from './mail/index.js';
