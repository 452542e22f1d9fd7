import { isDmarcRecord } from '../checks/index.js';

/**
 * Where a DMARC record's reports go (RFC 7489 §6.2, §7.1): the domain of a `mailto:` report URI,
 * and the record a destination outside the policy's organisational domain publishes to say it
 * takes the reports. The record itself is read once, for both tools (checks/dmarc-record.ts).
 */

/**
 * The domain of a `mailto:` report URI (§6.2), lower case, with any `!size` suffix and URI
 * parameters dropped; undefined for any other scheme or a malformed address.
 */
export function reportDomainOf(uri: string): string | undefined {
  const match = /^mailto:[^@?!]+@([^?!]+)/i.exec(uri);
  const domain = match?.[1]?.toLowerCase().replace(/\.$/, '');
  return domain && /^[a-z0-9.-]+$/.test(domain) ? domain : undefined;
}

/**
 * §7.1: where a report destination must say it takes the reports of `policyDomain`: a TXT
 * record starting `v=DMARC1` at `<policyDomain>._report._dmarc.<destination>`.
 */
export function reportAuthorizationName(policyDomain: string, destination: string): string {
  return `${policyDomain}._report._dmarc.${destination}`;
}

/** §7.1: an answer authorises the reports when one of its TXT records starts with v=DMARC1. */
export function authorizesReports(records: readonly string[]): boolean {
  return records.some(isDmarcRecord);
}
