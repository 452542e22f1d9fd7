/**
 * The checks: an IP, a sending domain, a pool (discovery and addresses), with the reverse DNS,
 * sender addresses, DMARC and the score they are built from.
 */

export type { AddressSummary } from './address-summary.js';
export {
  type CheckFailure,
  checkFailures,
  type CheckOutcome,
  type FailedCheck,
} from './check-outcome.js';
export {
  type CheckReadiness,
  confirmedCheckFailures,
  type NotConfigured,
  notReady,
  runConfirmed,
} from './confirmed-check.js';
export { checkDomain, type DomainCheckDeps, type DomainCheckResult } from './domain-check.js';
export { checkIp, type IpCheckDeps, type IpCheckResult } from './ip-check.js';
export { checkPoolAddresses, type PoolCheckResult } from './pool-check.js';
export { discoverPool, type PoolDiscoveryOptions } from './pool-discovery.js';
export { reverseName } from './rdns.js';
export {
  isPolicyListing,
  ptrBreak,
  type SenderRuleBreak,
  senderRuleBreaks,
} from './sender-rules.js';
// What the mail check (src/reputation/mail/) builds on: the domain check's SPF, DMARC and MX.
export { summariseAddress } from './address-summary.js';
export { type DmarcLookup, organizationalDomain, readDmarcLookup } from './dmarc.js';
export {
  dmarcDefaults,
  type DmarcReading,
  isDmarcRecord,
  readDmarcRecord,
} from './dmarc-record.js';
export {
  dkimTagRules,
  dmarcTagRules,
  parseTagList,
  reportingTagRules,
  type TagList,
  type TagListRules,
} from './tag-list.js';
export { addressesToCheck, domainQueryBudget, spfSummary } from './domain-check.js';
export { checkDomainLists, domainListCounts } from './domain-lists.js';
export { reverseDns } from './rdns.js';
export { discoverSenderIps, type SenderIps } from './sender-ips.js';
export { senderAddresses } from './sender-addresses.js';
