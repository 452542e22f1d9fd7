/**
 * The watch as data (docs/watch-engine.md, "Storage and migration"): its zod schemas, where it
 * lives in the store (its records, its pending deliveries), the forms earlier versions stored read
 * anew, its events and public view, its ids and secrets, its limits and its schedule.
 */
export { currentDelivery, currentState } from './stored-forms.js';
export {
  type DropReason,
  enqueueDeliveries,
  forgetDelivery,
  pendingDelivery,
  type QueueRules,
  type RetryRules,
  retryOrDrop,
} from './deliveries.js';
export { changeEventType, type LinksOf, watchEvent, type WatchLinks } from './events.js';
export { configuredLinks, watchLinks } from './links.js';
export { boundedChange, boundedHistory, maxHistoryChars, maxItemsPerChange } from './history.js';
export {
  allWatchesKey,
  callerWatchesKey,
  endedKeptMs,
  hasEnded,
  idleWebhook,
  networkWatchesKey,
  queues,
  releasePlaces,
  type WatchRecords,
  watchRecords,
} from './records.js';
export {
  type AlertBound,
  alertsPerMailboxPerDay,
  alertsPerWatchPerDay,
  takeMailboxAlert,
  takeWatchAlert,
} from './alert-bounds.js';
export {
  type CheckSchedule,
  type ConfirmingChecks,
  confirmingCheckAt,
  confirmingCheckS,
  confirmationRetryDelaysMs,
  defaultRetryDelaysMs,
  deliveryLeaseMs,
  nextCheckAt,
  pauseAfterFailedEvents,
  retryDelay,
  scheduleAfterCheck,
} from './schedule.js';
export * from './schemas.js';
export {
  type Digest,
  hashOf,
  newEventId,
  newManageKey,
  newWatchId,
  type RandomBytes,
  sameHash,
} from './secrets.js';
export {
  maxIntervalS,
  networkCap,
  networkShareOfMax,
  networkSubject,
  type WatchLimits,
} from './settings.js';
export { watchView } from './view.js';
export {
  type Notice,
  type NoticeEvent,
  noticeEventSchema,
  type SourceFailingEvent,
  sourceFailingEventSchema,
} from './notices.js';
