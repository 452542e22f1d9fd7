/**
 * E-mail alerts (docs/watches.md, "E-mail"): addresses, double opt-in, one-click unsubscribe,
 * the daily limits on confirmation messages, and the sender each platform may provide.
 */
export { maskEmail, parseEmailAddress, parseMailbox, type EmailParse } from './address.js';
export {
  checkConfirmCode,
  type CodeCheck,
  confirmationsPerDay,
  confirmationTtlMs,
  emailView,
  type Hashing,
  isUnsubscribeCode,
  newEmail,
  takeConfirmationSend,
} from './opt-in.js';
export {
  type EmailView,
  emailViewSchema,
  type PendingEmail,
  pendingEmailSchema,
  type WatchEmail,
  watchEmailSchema,
} from './schemas.js';
export type { EmailAnswer, EmailMessage, EmailSender } from './sender.js';
export { type EmailContent, emailLinks, emailMessage } from './message.js';
