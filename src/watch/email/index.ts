/**
 * E-mail alerts (docs/watches.md, "E-mail"): addresses, double opt-in, one-click unsubscribe,
 * the daily allowances of confirmation messages, and the sender each platform may provide.
 */
export {
  maskAddressesIn,
  maskEmail,
  parseEmailAddress,
  parseMailbox,
  type EmailParse,
} from './address.js';
export {
  checkConfirmCode,
  type CodeCheck,
  confirmationTtlMs,
  emailView,
  type Hashing,
  isUnsubscribeCode,
  newEmail,
} from './opt-in.js';
export {
  type AllowanceOutcome,
  type ConfirmationBound,
  confirmationsPerDay,
  confirmationsPerNetworkPerDay,
  giveBackAllowance,
  mailboxOf,
  retakeAllowance,
  takeConfirmationAllowance,
  type TakenAllowance,
} from './allowance.js';
export {
  type EmailDelivery,
  emailDeliverySchema,
  type EmailView,
  emailViewSchema,
  type PendingEmail,
  pendingEmailSchema,
  type WatchEmail,
  watchEmailSchema,
} from './schemas.js';
export {
  type EmailAnswer,
  type EmailMessage,
  type EmailSender,
  isPermanentReply,
  type RelayCheck,
} from './sender.js';
export { type EmailContent, emailLinks, emailMessage } from './message.js';
