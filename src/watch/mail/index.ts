/** Mail watches (docs/watches.md, "Mail watches"): what a mail check showed, kept and compared. */
export { mergeMailFacts } from './merge.js';
export { expiringUnderDays, type MailObservation, observeMail } from './observe.js';
export {
  type MailBrief,
  mailBriefSchema,
  type MailChange,
  mailChangeSchema,
  type MailFact,
  mailFactKey,
  type MailFacts,
  mailFactsSchema,
} from './schemas.js';
export { watchSelectors } from './selectors.js';
