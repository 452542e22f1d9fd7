import tr46 from 'tr46';
import { isMixedScript, unicodeScripts } from 'unicode-script';
import {
  canonicalIpv6,
  isDottedQuad,
  isPublicIpv4,
  isPublicIpv6,
  parseIpv6,
  specialUseSuffix,
} from '../../lib/index.js';
import { echo } from './input-forms.js';

/**
 * What a caller may ask about: a public IPv4 or IPv6 address or a public host name. Anything that
 * names the service's own network (private ranges, `localhost`, `.internal` ...) is refused, so the
 * service never becomes an oracle for internal DNS.
 */

export type Target =
  | { kind: 'ipv4'; address: string }
  /** `address` in RFC 5952 canonical form, whatever RFC 4291 form was typed. */
  | { kind: 'ipv6'; address: string }
  /**
   * `name` is the ASCII (A-label) form that is queried; `display` the form shown to people: the
   * Unicode form, or `name` itself when a label mixes scripts (see `displayName`).
   */
  | { kind: 'domain'; name: string; display: string };

export type TargetParse = { ok: true; target: Target } | { ok: false; reason: string };

/** A host name read: always a name, never an address. */
export type HostNameParse =
  { ok: true; target: Extract<Target, { kind: 'domain' }> } | { ok: false; reason: string };

/** RFC 1035 §2.3.4 / RFC 1123 §2.1: at most 253 characters in text form, 63 per label. */
const maxNameLength = 253;
const maxLabelLength = 63;
const ldhLabel = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export function parseTarget(input: string): TargetParse {
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'target is empty' };
  if (isDottedQuad(text)) {
    return isPublicIpv4(text)
      ? { ok: true, target: { kind: 'ipv4', address: text } }
      : { ok: false, reason: `${text} is not a public IPv4 address` };
  }
  // Everything made only of digits and dots that is not a dotted quad is a malformed address
  // (`1.2.3`, `01.2.3.4`, `1.2.3.4.5`), never a host name: a top-level label is never numeric.
  if (/^[0-9.]+$/.test(text)) {
    return { ok: false, reason: `${echo(text)} is not a valid IPv4 address` };
  }
  // A network (`2001:db8::/32`, `192.0.2.0/24`) is not one address to check.
  if (text.includes('/')) return { ok: false, reason: 'expected an IP address or a host name' };
  // A colon is in no host name: it is an IPv6 address or nothing.
  if (text.includes(':')) return parseIpv6Target(text);
  return parseHostName(text);
}

/**
 * Any RFC 4291 §2.2 text form, checked by the same rule as IPv4 (docs/ipv6.md): the IPv4-mapped,
 * NAT64, 6to4 and Teredo forms of an address are refused like a private address, so none of them
 * is a way around the IPv4 rule.
 */
function parseIpv6Target(text: string): TargetParse {
  const address = parseIpv6(text);
  if (address === undefined) {
    return { ok: false, reason: `${echo(text)} is not a valid IPv6 address` };
  }
  return isPublicIpv6(text)
    ? { ok: true, target: { kind: 'ipv6', address: canonicalIpv6(address) } }
    : { ok: false, reason: `${text} is not a public IPv6 address` };
}

/**
 * Whether a name as DNS answered it (lower case, no trailing dot) is a host name: LDH labels
 * (RFC 1123 §2.1, RFC 952), 253 characters at most. A PTR such as `<script>…` or one holding a
 * control character is not, and is never looked up or forward-confirmed.
 */
export function isHostName(name: string): boolean {
  return name.length <= maxNameLength && name.split('.').every((label) => ldhLabel.test(label));
}

export function parseHostName(input: string): HostNameParse {
  const text = input.trim().replace(/\.$/, '');
  if (text === '') return { ok: false, reason: 'the host name is empty' };
  const invalid = { ok: false, reason: `${echo(text)} is not a valid host name` } as const;
  if (text.includes(':') || text.includes('/')) {
    return { ok: false, reason: 'expected a host name, not an address or a network' };
  }
  // UTS #46 processing (IDNA2008 with Unicode mapping) as browsers do; the LDH rule of RFC 1123
  // and the lengths of RFC 1035 §2.3.4 are checked on the ASCII result below rather than by
  // tr46's STD3 and DNS-length flags, so that a name too long is refused in those words.
  const ascii = tr46.toASCII(text, {
    checkHyphens: true,
    checkBidi: true,
    checkJoiners: true,
    transitionalProcessing: false,
    verifyDNSLength: false,
  });
  if (ascii === null || ascii === '') return invalid;
  const name = ascii.toLowerCase();
  if (name.length > maxNameLength) {
    return {
      ok: false,
      reason: `${echo(text)} is too long: ${name.length} characters, where a host name has at most ${maxNameLength} (RFC 1035 §2.3.4)`,
    };
  }
  const labels = name.split('.');
  const longLabel = labels.find((label) => label.length > maxLabelLength);
  if (longLabel !== undefined) {
    return {
      ok: false,
      reason: `${echo(text)} has a label of ${longLabel.length} characters, where a label has at most ${maxLabelLength} (RFC 1035 §2.3.4)`,
    };
  }
  if (!labels.every((label) => ldhLabel.test(label))) return invalid;
  if (labels.length < 2) return { ok: false, reason: 'single-label names are not public' };
  if (/^[0-9]+$/.test(labels.at(-1) ?? '')) return invalid;
  const suffix = specialUseSuffix(name);
  if (suffix !== undefined) return { ok: false, reason: `.${suffix} names are not public` };
  return { ok: true, target: { kind: 'domain', name, display: displayName(name).display } };
}

export interface DisplayName {
  /** What badges, cards and pages show: the Unicode form, or the ASCII form of a look-alike. */
  display: string;
  /**
   * When `display` is the ASCII form because a label mixes scripts: the Unicode form and the
   * scripts that label mixes, to be shown only beside the ASCII form and that warning.
   */
  mixedScripts?: { unicode: string; scripts: string[] };
}

/**
 * How a host name (its ASCII form, as `parseHostName` gives it) is shown to people. A label that
 * mixes scripts (UTS #39 §5.1: its characters' Script_Extensions have no script in common, so
 * `аpple` with a Cyrillic `а` is mixed and `пример` or `münchen` is not) makes a name that
 * imitates another: such a name is shown in its ASCII (punycode) form, as browsers show it
 * (UTS #39 §5.2, the "Highly Restrictive" level minus its Latin + CJK combinations). A name whose
 * punycode does not decode is shown as it is.
 */
export function displayName(ascii: string): DisplayName {
  const { domain: unicode, error } = tr46.toUnicode(ascii, { checkHyphens: false });
  if (error || unicode === ascii) return { display: ascii };
  const mixed = unicode.split('.').find((label) => isMixedScript(label));
  if (mixed === undefined) return { display: unicode };
  const scripts = [...unicodeScripts(mixed)].filter(
    (script) => script !== 'Common' && script !== 'Inherited',
  );
  return { display: ascii, mixedScripts: { unicode, scripts } };
}
