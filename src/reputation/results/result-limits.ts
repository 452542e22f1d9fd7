/**
 * How much of what DNS data holds a stored result keeps. Anyone can publish an SPF record of
 * 60 KB with 3,000 terms, an MX set of a thousand hosts or a pool of two thousand addresses; a
 * result holds the first of each up to these bounds, and the count of all of them beside, so no
 * result grows past a few tens of kilobytes (docs/checks.md has the worst case measured).
 */

/** Single sender addresses listed in a domain result's `ips` (docs/checks.md#bounded-results). */
export const maxListedAddresses = 1024;
/** Sender ranges, IPv6 networks and any other list of a result. */
export const maxListedNetworks = 256;
/** PTR names shown per address (a reverse zone may give one address thousands). */
export const maxListedNames = 32;
/** Addresses shown per MX host, and per host name in the IP tool. */
export const maxAddressesPerHost = 32;
/** A certificate's DNS names shown (a shared host's certificate may carry a hundred). */
export const maxCertificateNames = 32;
/** SPF terms shown per list (`nonPass`): a record may hold thousands. */
export const maxListedTerms = 32;
/** A term as shown; a modifier may carry kilobytes of text. */
export const maxTermChars = 256;
/** An SPF or DMARC record as shown (RFC 7208 §3.4 asks records to stay under about 450 octets). */
export const maxRecordChars = 2048;

/** `text`, cut to `max` characters with an ellipsis when longer. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The first `max` items and how many there were. */
export function capped<T>(items: readonly T[], max: number): { items: T[]; total: number } {
  return { items: items.slice(0, max), total: items.length };
}
