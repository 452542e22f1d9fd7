/**
 * Watches (docs/watches.md for users, docs/watch-engine.md for maintainers): targets re-checked on
 * a schedule, with signed webhooks, chat messages and e-mails on every change. The face other
 * folders use: the operations (`createWatches`), the kinds, the alerts' texts the views share, and
 * the schemas the routes and the document are built from.
 */
export { createWatches, type WatchDeps, type Watches } from './watches.js';
export type {
  Confirmation,
  CreateOutcome,
  KeyCheck,
  NoticeInput,
  UpdateOutcome,
  WatchChanges,
  WatchError,
  WatchFailure,
  WatchInput,
  WatchOwner,
} from './operations/index.js';
export { watchErrors } from './operations/index.js';
export {
  createRecheck,
  type Fact,
  type ListCatalogue,
  listCatalogue,
  type ListedOn,
  listedOnSchema,
  type ListingChange,
  listingChangeSchema,
  type MailBrief,
  mailBriefSchema,
  type MailChange,
  mailChangeSchema,
  type Recheck,
  type RecheckDeps,
  type RecheckOutcome,
  readWatchTarget,
  type WatchKind,
  watchKinds,
  watchKindSchema,
  type WatchStatus,
  watchStatusSchema,
  type WatchTargetReading,
} from './kinds/index.js';
export { chatText, mailChangeText, renderEmail } from './alerts/index.js';
export type { CheckClaims, RunnerOptions, TickOptions, TickReport, WatchRunner } from './runner.js';
export type { WatchBound } from './check-step.js';
export type { DeliveryOutcome } from './delivery-step.js';
export {
  defaultConfirmations,
  historyEntrySchema,
  type HistoryEntry,
  type LinksOf,
  maxConfirmations,
  maxHistory,
  maxIntervalS,
  networkCap,
  networkShareOfMax,
  type PendingDelivery,
  type WatchConfig,
  watchConfigSchema,
  type WatchEvent,
  watchEventSchema,
  type WatchEventType,
  type WatchLang,
  watchLangSchema,
  type WatchLimits,
  type WatchLinks,
  configuredLinks,
  watchLinks,
  type WatchState,
  watchStateSchema,
  type WatchView,
  watchViewSchema,
  type NoticeEvent,
  type SourceFailingEvent,
  sourceFailingEventSchema,
  type Webhook,
  webhookFormatSchema,
  type WebhookStatus,
  webhookStatusSchema,
} from './model/index.js';
export {
  checkConfirmCode,
  type CodeCheck,
  isUnsubscribeCode,
  type WatchEmail,
  watchEmailSchema,
  type EmailAnswer,
  type EmailContent,
  type EmailMessage,
  type EmailSender,
  emailLinks,
  emailMessage,
  isPermanentReply,
  parseEmailAddress,
  parseMailbox,
  type RelayCheck,
} from './email/index.js';
export { sourceFailingMessage } from './alerts/index.js';
export {
  type DayState,
  dayStrip,
  lastedMs,
  type ListingKey,
  listingStart,
  listingSteps,
  type Step,
  type TimelineEntry,
} from './timeline/index.js';
