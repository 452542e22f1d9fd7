/**
 * The kinds of watch (docs/watch-engine.md, "Kinds"): the registry of `ip`, `domain` and `mail`,
 * each reading its target, re-checking it and observing the result as facts and a status in brief;
 * the facts, the one merge that compares them, and the public shapes of a status and its changes.
 */
export {
  type Fact,
  type FactKey,
  factSchema,
  type ListFact,
  type MailFact,
  type MailFactKind,
  mailFactKinds,
  type Unconfirmed,
  unconfirmedSchema,
} from './facts.js';
export { type ListCatalogue, listCatalogue } from './list-catalogue.js';
export { observeDomain, observeIp, senderAddressGone } from './lists.js';
export { expiringUnderDays, observeMailCheck } from './mail-observe.js';
export { watchSelectors } from './mail-selectors.js';
export type { RecheckDeps, RecheckOutcome, Watched, WatchKindEntry } from './kind.js';
export {
  awaitsConfirmation,
  type Change,
  isChange,
  type Known,
  noChange,
  type Observation,
  recordObservation,
} from './merge.js';
export {
  createRecheck,
  kindsTakingSelectors,
  type Recheck,
  type WatchKind,
  watchKinds,
  watchKindSchema,
} from './registry.js';
export { readWatchTarget, type WatchTargetReading } from './target.js';
export {
  type ListedOn,
  listedOnSchema,
  type ListingChange,
  listingChangeSchema,
  type MailBrief,
  mailBriefSchema,
  type MailChange,
  mailChangeSchema,
  type WatchStatus,
  watchStatusSchema,
} from './status.js';
