/**
 * Where an inbox's reports are mailed (docs/reports.md, "Addresses"): with REPORTS_ADDRESS set
 * (`dmarc@reports.example.org`) each inbox has `dmarc+<id>@reports.example.org`, a subaddress of
 * the one mailbox (RFC 5233), so one mailbox serves every inbox and a recipient names its inbox.
 */

/** REPORTS_ADDRESS read: its local part (the base of every subaddress) and its domain. */
export interface ReportsMailbox {
  base: string;
  /** Lower case, ASCII. */
  domain: string;
}

/** RFC 5233 §1: the separator between the base and the detail. */
const separator = '+';

/** `base@domain` as REPORTS_ADDRESS writes it; undefined when it is not one plain address. */
export function parseReportsMailbox(text: string): ReportsMailbox | undefined {
  const match = /^([A-Za-z0-9!#$%&'*/=?^_`{|}~.-]{1,64})@([A-Za-z0-9.-]{1,253})$/.exec(text.trim());
  if (!match) return undefined;
  const [, base = '', domain = ''] = match;
  // The base may not hold the separator itself: the detail would be ambiguous.
  if (base.includes(separator)) return undefined;
  const name = domain.toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(name)) {
    return undefined;
  }
  return { base, domain: name };
}

/** The inbox's address, `base+<id>@domain`. */
export function inboxAddress(mailbox: ReportsMailbox, id: string): string {
  return `${mailbox.base}${separator}${id}@${mailbox.domain}`;
}

/**
 * The inbox id a recipient names, or undefined when it is not a subaddress of the mailbox: the
 * base and the domain compared case-insensitively (RFC 5321 §2.4 lets a host treat its local parts
 * so; the domain is case-insensitive anyway), the id exactly, as it was made. Angle brackets and a
 * trailing dot of the domain, as an envelope may carry them, are taken off.
 */
export function inboxIdOf(mailbox: ReportsMailbox, recipient: string): string | undefined {
  const address = recipient.trim().replace(/^<(.*)>$/, '$1');
  const at = address.lastIndexOf('@');
  if (at < 0) return undefined;
  const local = address.slice(0, at);
  const domain = address
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  if (domain !== mailbox.domain) return undefined;
  const split = local.indexOf(separator);
  if (split < 0) return undefined;
  if (local.slice(0, split).toLowerCase() !== mailbox.base.toLowerCase()) return undefined;
  const id = local.slice(split + 1);
  return /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : undefined;
}

/**
 * The address a `mailto:` report URI names (RFC 7489 §6.2, RFC 8460 §3): percent-decoded, the
 * `!size` limit and any URI query dropped; undefined for another scheme.
 */
export function mailtoAddress(uri: string): string | undefined {
  const match = /^mailto:([^?!]+)/i.exec(uri.trim());
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!).trim();
  } catch {
    return undefined;
  }
}

/** Whether a report URI names `address` (compared case-insensitively, as receivers send to it). */
export function namesAddress(uri: string, address: string): boolean {
  return mailtoAddress(uri)?.toLowerCase() === address.toLowerCase();
}
