/**
 * Where an inbox's reports are sent (docs/reports.md, "Pointing rua here"): its subaddress of
 * REPORTS_ADDRESS (RFC 5233), the DMARC and TLS-RPT records the domain publishes to name it, the
 * RFC 7489 §7.1 authorization at the address's domain, and whether the domain names it already.
 */

export {
  inboxAddress,
  inboxIdOf,
  mailtoAddress,
  namesAddress,
  parseReportsMailbox,
  type ReportsMailbox,
} from './addresses.js';
export { type Authorization, inboxQueryBudget, type InboxDns, readInboxDns } from './inbox-dns.js';
export { namesInbox, type SuggestedRecord, suggestDmarc, suggestTlsRpt } from './records.js';
