import { isSpecialUseName } from '../../lib/index.js';

/**
 * E-mail addresses as a watch takes them (docs/watches.md, "E-mail"): one plain address, the
 * `Mailbox` of RFC 5321 §4.1.2 in its common form (a dot-atom local part, a domain name), within
 * the lengths of §4.5.3.1. Quoted local parts, address literals and comments are refused: no
 * mailbox provider hands them out, and every one of them is a way to smuggle text into a header.
 */

export type EmailParse = { ok: true; address: string } | { ok: false; reason: string };

/** RFC 5322 §3.2.3 atext, the characters of a dot-atom's atoms. */
const atom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const localPart = new RegExp(`^${atom}(\\.${atom})*$`);
/** RFC 1123 §2.1 labels: letters, digits, inner hyphens, up to 63 characters. */
const label = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

const refuse = (reason: string): EmailParse => ({ ok: false, reason });

/** One address, its domain lowercased (RFC 5321 §2.4: only the local part may be case-sensitive). */
export function parseEmailAddress(text: string): EmailParse {
  const trimmed = text.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 1) return refuse('email must be one address such as postmaster@example.org');
  const local = trimmed.slice(0, at);
  const domain = trimmed
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  // RFC 5321 §4.5.3.1.1 and §4.5.3.1.3: 64 octets of local part, 256 of path (254 of address).
  if (local.length > 64 || trimmed.length > 254)
    return refuse('email is longer than RFC 5321 allows');
  if (!localPart.test(local)) {
    return refuse(
      "the part of email before @ may hold letters, digits, dots and !#$%&'*+/=?^_`{|}~-",
    );
  }
  if (!domain.split('.').every((part) => label.test(part)) || isSpecialUseName(domain)) {
    return refuse('the domain of email must be a public domain name such as example.org');
  }
  return { ok: true, address: `${local}@${domain}` };
}

/**
 * An address as public views show it: the first character of the local part, `***`, and the
 * domain (`a***@example.com`), so the page of a watch does not hand its owner's address to
 * whoever reads it.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, 1)}***${address.slice(at)}`;
}

/** Anything that reads as an address in a text: what a relay's reply may echo of a recipient. */
const addressInText =
  /[^\s<>"'(),;:[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*/g;

/**
 * A text with every address in it masked as the public view masks one (`a***@example.com`): a
 * relay's reason for a failure names the recipient ("550 5.1.1 <bob@example.org>: unknown"), and
 * the log and the view keep the reason, not the address.
 */
export function maskAddressesIn(text: string): string {
  return text.replace(addressInText, (address) => maskEmail(address));
}

/**
 * ALERT_FROM: an address, or a display name and an address in angle brackets
 * (`Reputation <alerts@example.org>`, RFC 5322 §3.4); undefined when it is neither.
 */
export function parseMailbox(text: string): { address: string; name?: string } | undefined {
  const named = /^\s*([^<>"\r\n]*?)\s*<([^<>\s]+)>\s*$/.exec(text);
  const parsed = parseEmailAddress(named ? named[2]! : text);
  if (!parsed.ok) return undefined;
  const name = named?.[1];
  return { address: parsed.address, ...(name ? { name } : {}) };
}
